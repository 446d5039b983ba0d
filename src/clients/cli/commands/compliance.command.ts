import { type Command, Option } from 'commander';
import type { ComplianceView } from '../../../features/compliance/compliance.service.js';
import type {
  SnapshotSummary,
  SnapshotVerification,
  SnapshotView,
} from '../../../features/compliance/snapshots.service.js';
import { INTERVALS } from '../../../shared/vocabulary.js';
import { score as percent } from '../../api-client/format.js';
import { compliancePath, frameworkPath, snapshotPath } from '../../api-client/paths.js';
import type { FrameworkCompliance, History } from '../../api-client/types.js';
import type { Cli } from '../cli.js';
import { describe, print } from '../output.js';
import type { TableData } from '../ui/plain-table.js';
import { sparkline } from '../ui/sparkline.js';

/** "▁▂▃▅ 9.5%": the trend, then where it ends. */
function trend(history: History): string {
  const scores = history.points.map((point) => point.score);
  return `${sparkline(scores)} ${percent(scores.at(-1) ?? null)}`;
}

/** The per-domain table of a score: ISO/IEC 42001 domains, or those of any framework that has them. */
function domainTable(byDomain: ComplianceView['byDomain'], countLabel: string): TableData {
  return {
    columns: ['DOMAIN', 'SCORE', countLabel, 'DONE', 'ACTIVE', 'OPEN', 'N/A', 'TITLE'],
    rows: byDomain.map((domain) => [
      domain.domain,
      percent(domain.score),
      domain.controlCount,
      domain.counts.implemented,
      domain.counts.inProgress,
      domain.counts.notStarted,
      domain.counts.notApplicable,
      domain.domainTitle,
    ]),
  };
}

const countsText = ({ counts }: { counts: ComplianceView['counts'] }) =>
  `${counts.implemented} implemented, ${counts.inProgress} in progress, ` +
  `${counts.notStarted} not started, ${counts.notApplicable} not applicable`;

/** The score of any framework, with how much of it rests on the org's own records. */
async function frameworkScore(cli: Cli, command: Command, frameworkId: string): Promise<void> {
  const client = cli.client(command);
  const org = cli.org(command);
  const json = cli.json(command);
  const score = await client.get<FrameworkCompliance>(frameworkPath(org, frameworkId, '/compliance'));
  if (json) {
    await print({ json }, { data: score });
    return;
  }
  const history = await client.get<History>(frameworkPath(org, frameworkId, '/compliance/history'));
  const { direct, inferred, none } = score.assessed;
  await print(
    { json },
    {
      data: score,
      text: `${describe({
        framework: score.frameworkId,
        score: `${percent(score.score)}  (${countsText(score)})`,
        'direct score': `${percent(score.directScore)}  (the org's own records only)`,
        assessed: `${direct} direct, ${inferred} inferred, ${none} none  (applicable requirements)`,
        trend: `${trend(history)}  (${history.points.length} days)`,
      })}${score.byDomain.length ? '\n' : ''}`,
      table: score.byDomain.length ? domainTable(score.byDomain, 'REQUIREMENTS') : undefined,
    },
  );
}

const frameworkOption = (what: string) =>
  new Option(
    '--framework <frameworkId>',
    `${what} of this framework (e.g. eu-ai-act, nist-ai-rmf, an imported catalog) instead of ISO/IEC 42001`,
  );

export function registerComplianceCommands(program: Command, cli: Cli): void {
  program
    .command('score')
    .description("the org's compliance score, its trend over the last 30 days and the score per domain")
    .addOption(frameworkOption('the score'))
    .addHelpText(
      'after',
      `
With --framework, the score counts effective statuses (the org's own records, else what the crosswalk
infers); it also shows the direct score (own records only) and how many applicable requirements take
their status from each source.

Example:
  $ comply score
  $ comply score --framework eu-ai-act --json`,
    )
    .action(async (options: { framework?: string }, command: Command) => {
      if (options.framework !== undefined) {
        await frameworkScore(cli, command, options.framework);
        return;
      }
      const client = cli.client(command);
      const org = cli.org(command);
      const json = cli.json(command);
      const score = await client.get<ComplianceView>(compliancePath(org));
      if (json) {
        await print({ json }, { data: score });
        return;
      }
      const history = await client.get<History>(compliancePath(org, '/history'));
      await print(
        { json },
        {
          data: score,
          text: [
            `score  ${percent(score.score)}  (${countsText(score)})`,
            `trend  ${trend(history)}  (${history.points.length} days)`,
            '',
          ].join('\n'),
          table: domainTable(score.byDomain, 'CONTROLS'),
        },
      );
    });

  program
    .command('history')
    .description('the score at the end of each period, with a sparkline')
    .addOption(frameworkOption('the history'))
    .option('--from <date>', 'start (YYYY-MM-DD or ISO date-time); default 29 days ago')
    .option('--to <date>', 'end; default now')
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
        await print(
          { json: cli.json(command) },
          {
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
          },
        );
      },
    );

  const snapshot = program.command('snapshot').description('immutable, content-hashed snapshots for audits');

  snapshot
    .command('create <label>')
    .description('freeze the current state of every control and its evidence under a label')
    .option('--notes <text>', 'why it was taken')
    .action(async (label: string, options: { notes?: string }, command: Command) => {
      const created = await cli
        .client(command)
        .post<SnapshotView>(compliancePath(cli.org(command), '/snapshot'), {
          label,
          notes: options.notes,
        });
      await print(
        { json: cli.json(command) },
        {
          data: created,
          text: describe({
            snapshotId: created.snapshotId,
            label: created.label,
            created: created.createdAt,
            score: percent(created.score),
            controls: created.controls.length,
            sha256: created.contentHash,
          }),
        },
      );
    });

  snapshot
    .command('list')
    .description('snapshots of --org, newest first')
    .action(async (_options, command: Command) => {
      const result = await cli
        .client(command)
        .get<{ snapshots: SnapshotSummary[]; total: number }>(snapshotPath(cli.org(command)), {
          limit: 200,
        });
      await print(
        { json: cli.json(command) },
        {
          data: result,
          table: {
            columns: ['ID', 'CREATED', 'SCORE', 'LABEL'],
            rows: result.snapshots.map((s) => [s.snapshotId, s.createdAt, percent(s.score), s.label]),
          },
        },
      );
    });

  snapshot
    .command('show <snapshotId>')
    .description('one snapshot: its summary, hash check and every control')
    .action(async (snapshotId: string, _options, command: Command) => {
      const client = cli.client(command);
      const path = snapshotPath(cli.org(command), snapshotId);
      const shown = await client.get<SnapshotView>(path);
      if (cli.json(command)) {
        await print({ json: true }, { data: shown });
        return;
      }
      const check = await client.get<SnapshotVerification>(`${path}/verify`);
      await print(
        { json: false },
        {
          data: shown,
          text: `${describe({
            snapshotId: shown.snapshotId,
            label: shown.label,
            notes: shown.notes,
            created: shown.createdAt,
            score: percent(shown.score),
            sha256: shown.contentHash,
            intact: check.valid ? 'yes (content matches its hash)' : 'NO: content does not match its hash',
          })}\n`,
          table: {
            columns: ['CONTROL', 'STATUS', 'APPLICABLE', 'EVIDENCE', 'TITLE'],
            rows: shown.controls.map((c) => [
              c.controlId,
              c.status,
              c.applicable ? 'yes' : 'no',
              c.evidenceCount,
              c.title,
            ]),
          },
        },
      );
      if (!check.valid) process.exitCode = 1;
    });

  snapshot
    .command('verify <snapshotId>')
    .description('recompute the content hash on the server; exits 1 if the content no longer matches')
    .action(async (snapshotId: string, _options, command: Command) => {
      const check = await cli
        .client(command)
        .get<SnapshotVerification>(snapshotPath(cli.org(command), snapshotId, '/verify'));
      await print(
        { json: cli.json(command) },
        {
          data: check,
          text: check.valid
            ? `intact  ${check.contentHash}`
            : `ALTERED  recorded ${check.contentHash}, now ${check.computedHash}`,
        },
      );
      if (!check.valid) process.exitCode = 1;
    });
}
