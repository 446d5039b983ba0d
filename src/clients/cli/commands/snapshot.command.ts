import type { Command } from 'commander';
import type {
  SnapshotSummary,
  SnapshotVerification,
  SnapshotView,
} from '../../../features/compliance/snapshots.service.js';
import { score as percent } from '../../api-client/format.js';
import { compliancePath, snapshotPath } from '../../api-client/paths.js';
import type { Cli } from '../cli.js';
import { describe, print } from '../output.js';
import { resolveSnapshot } from '../views/snapshot-ref.js';

export function registerSnapshotCommands(program: Command, cli: Cli): void {
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
      await cli.print(command, {
        data: created,
        text: describe({
          snapshotId: created.snapshotId,
          label: created.label,
          created: created.createdAt,
          score: percent(created.score),
          controls: created.controls.length,
          sha256: created.contentHash,
        }),
      });
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
      await cli.print(command, {
        data: result,
        table: {
          columns: ['ID', 'CREATED', 'SCORE', 'LABEL'],
          rows: result.snapshots.map((s) => [s.snapshotId, s.createdAt, percent(s.score), s.label]),
        },
      });
    });

  snapshot
    .command('show <snapshot>')
    .description(
      'one snapshot, by label or id: its label, time, hash (checked), score and the status of every control',
    )
    .addHelpText(
      'after',
      `
A label names the newest snapshot with that label. --json prints the snapshot as the API gives it
(with every control); the text adds whether its content still matches its hash (exit 1 if not).

Example:
  $ comply snapshot show "release 1.4"
  $ comply snapshot show "release 1.4" --json | jq '.controls[] | select(.status != "implemented")'`,
    )
    .action(async (ref: string, _options, command: Command) => {
      const client = cli.client(command);
      const org = cli.org(command);
      const path = snapshotPath(org, await resolveSnapshot(client, org, ref));
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
    .command('verify <snapshot>')
    .description(
      'recompute the content hash of a snapshot (label or id) on the server; exits 1 if the content no longer matches',
    )
    .action(async (ref: string, _options, command: Command) => {
      const client = cli.client(command);
      const org = cli.org(command);
      const check = await client.get<SnapshotVerification>(
        snapshotPath(org, await resolveSnapshot(client, org, ref), '/verify'),
      );
      await cli.print(command, {
        data: check,
        text: check.valid
          ? `intact  ${check.contentHash}`
          : `ALTERED  recorded ${check.contentHash}, now ${check.computedHash}`,
      });
      if (!check.valid) process.exitCode = 1;
    });
}
