import { ctePath } from '../../api-client/paths.js';
export function registerConflictsCommand(program, cli) {
    program
        .command('conflicts')
        .description('requirements of different frameworks that pull against each other, with resolutions')
        .option('--framework <frameworkId>', 'only conflicts involving this framework')
        .option('--kind <kind>', 'contradiction, tension or overlap')
        .option('--severity <severity>', 'high, medium or low')
        .action(async (options, command) => {
        const result = await cli.client(command).get(ctePath('conflicts'), {
            frameworkId: options.framework,
            kind: options.kind,
            severity: options.severity,
        });
        await cli.print(command, {
            data: result,
            table: {
                columns: ['CONFLICT', 'KIND', 'SEVERITY', 'REQUIREMENTS', 'RESOLUTION'],
                rows: result.conflicts.map((c) => [
                    c.conflictId,
                    c.kind,
                    c.severity,
                    c.requirements.map((r) => `${r.frameworkId} ${r.requirementId}`).join('; '),
                    c.resolution,
                ]),
            },
        });
    });
}
//# sourceMappingURL=conflicts.command.js.map