import type { Command } from 'commander';
import { ctePath } from '../../api-client/paths.js';
import type { GapReport } from '../../api-client/types.js';
import type { Cli } from '../cli.js';

export function registerGapsCommand(program: Command, cli: Cli): void {
  program
    .command('gaps <frameworkId>')
    .description('unmet requirements of a framework for the org, by priority, with what to do')
    .action(async (frameworkId: string, _options, command: Command) => {
      const report = await cli.client(command).get<GapReport>(ctePath('gaps', frameworkId), {
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
