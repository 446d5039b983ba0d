import { ctePath } from '../../api-client/paths.js';
export function registerGapsCommand(program, cli) {
    program
        .command('gaps <frameworkId>')
        .description('unmet requirements of a framework for the org, by priority, with what to do')
        .action(async (frameworkId, _options, command) => {
        const report = await cli.client(command).get(ctePath('gaps', frameworkId), {
            orgId: cli.optionalOrg(command),
        });
        const { critical, important, minor } = report.summary;
        await cli.print(command, {
            data: report,
            text: `${report.gaps.length} gaps in ${report.frameworkId}: ${critical} critical, ${important} important, ${minor} minor\n`,
            table: {
                columns: ['PRIORITY', 'REQUIREMENT', 'STATUS', 'RECOMMENDATION'],
                rows: report.gaps.map((gap) => [gap.priority, gap.controlId, gap.status, gap.recommendation]),
            },
        });
    });
}
//# sourceMappingURL=gaps.command.js.map