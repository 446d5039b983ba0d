import { type Command, Option } from 'commander';
import { INTERVALS } from '../../../shared/vocabulary.js';
import { score as percent } from '../../api-client/format.js';
import { compliancePath, frameworkPath } from '../../api-client/paths.js';
import type { History } from '../../api-client/types.js';
import { type Cli, parseDate } from '../cli.js';
import { frameworkOption, trend } from '../views/score-view.js';

export function registerHistoryCommand(program: Command, cli: Cli): void {
  program
    .command('history')
    .description('the score at the end of each period, with a sparkline')
    .addOption(frameworkOption('the history'))
    .option('--from <date>', 'start (YYYY-MM-DD or ISO date-time); default 29 days ago', parseDate)
    .option('--to <date>', 'end; default now', parseDate)
    .addOption(new Option('--interval <interval>', 'period length').choices(INTERVALS).default('daily'))
    .addHelpText(
      'after',
      `
Example:
  $ comply history --interval weekly --from 2026-01-01
  $ comply history --framework nist-ai-rmf --interval monthly --json`,
    )
    .action(
      async (
        options: { framework?: string; from?: string; to?: string; interval: string },
        command: Command,
      ) => {
        const { framework, ...query } = options;
        const org = cli.org(command);
        const history = await cli
          .client(command)
          .get<History>(
            framework === undefined
              ? compliancePath(org, '/history')
              : frameworkPath(org, framework, '/compliance/history'),
            query,
          );
        await cli.print(command, {
          data: history,
          text: `${history.interval} ${history.from.slice(0, 10)} → ${history.to.slice(0, 10)}  ${trend(history)}\n`,
          table: {
            columns: ['PERIOD', 'SCORE', 'DONE', 'ACTIVE', 'OPEN', 'N/A'],
            rows: history.points.map((point) => [
              point.periodStart.slice(0, 10),
              percent(point.score),
              point.counts.implemented,
              point.counts.inProgress,
              point.counts.notStarted,
              point.counts.notApplicable,
            ]),
          },
        });
      },
    );
}
