import { percent, score } from '../../api-client/format.js';
import { frameworkPath } from '../../api-client/paths.js';
/** `comply frameworks status`: a subcommand of the `frameworks` group (frameworks.command.ts). */
export function registerFrameworkStatusCommand(frameworks, cli) {
    frameworks
        .command('status')
        .description("every framework with the org's score, how much of it rests on direct records, and coverage")
        .addHelpText('after', `
SCORE counts effective statuses (the org's own records, else what the crosswalk infers); DIRECT SCORE
counts the org's own records only. DIRECT, INFERRED and NONE count the applicable requirements whose
status comes from each source; N/A the requirements marked not applicable. COVERAGE is the CTE
coverage of the framework through the crosswalk.

Example:
  $ comply frameworks status --org acme
  $ comply frameworks status --json`)
        .action(async (_options, command) => {
        const result = await cli.client(command).get(frameworkPath(cli.org(command)));
        await cli.print(command, {
            data: result,
            table: {
                columns: [
                    'FRAMEWORK',
                    'REQUIREMENTS',
                    'SCORE',
                    'DIRECT SCORE',
                    'DIRECT',
                    'INFERRED',
                    'NONE',
                    'N/A',
                    'COVERAGE',
                    'NAME',
                ],
                rows: result.frameworks.map((f) => [
                    f.frameworkId,
                    f.controlCount,
                    score(f.score),
                    score(f.directScore),
                    f.assessed.direct,
                    f.assessed.inferred,
                    f.assessed.none,
                    f.counts.notApplicable,
                    percent(f.coverage),
                    f.name,
                ]),
            },
        });
    });
}
//# sourceMappingURL=frameworks-status.command.js.map