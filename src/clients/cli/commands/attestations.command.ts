import { type Command, Option } from 'commander';
import type { AttestationPage } from '../../../features/attestations/attestations.query.js';
import type { EpochSummary } from '../../../features/attestations/epochs.service.js';
import type { AttestationRecord } from '../../../shared/attestation-content.js';
import { attestationPath, epochPath } from '../../api-client/paths.js';
import { type Cli, parseInteger } from '../cli.js';
import { describe } from '../output.js';

/** A bare date reads as the whole day, in UTC: from its first to its last millisecond. */
const dayBound = (value: string | undefined, end: boolean) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z` : value;

export function recordText(record: AttestationRecord, extra: Record<string, unknown> = {}): string {
  return describe({
    attestationId: record.attestationId,
    ...extra,
    level: record.level,
    epoch: record.epochId,
    system: record.systemId,
    controls: record.controlIds.join(', '),
    timestamp: record.timestamp,
    signedBy: record.signature?.keyId ?? '(unsigned)',
    contentHash: record.contentHash,
    received: record.receivedAt,
    claims: JSON.stringify(record.claims),
  });
}

export function registerAttestationCommands(program: Command, cli: Cli): void {
  const attestations = program.command('attestations').description('read what sidecars attested');

  attestations
    .command('list')
    .description("a page of --org's attestations, newest first")
    .addOption(new Option('--level <level>', 'only this level').choices(['L0', 'L2']))
    .option('--epoch <epochId>', 'only this epoch')
    .option(
      '--system <systemId>',
      'only those about this AI system (its id, as `comply systems list` shows it)',
    )
    .option('--from <date>', 'earliest timestamp (YYYY-MM-DD or ISO date-time), inclusive')
    .option('--to <date>', 'latest timestamp (YYYY-MM-DD or ISO date-time), inclusive')
    .option('--limit <n>', 'page size, 1..1000', parseInteger, 50)
    .option('--cursor <cursor>', 'continue after a previous page (its next cursor)')
    .option('--total', 'also count every match (slower on large orgs)')
    .action(
      async (
        options: {
          level?: string;
          epoch?: string;
          system?: string;
          from?: string;
          to?: string;
          limit: number;
          cursor?: string;
          total?: boolean;
        },
        command: Command,
      ) => {
        const page = await cli.client(command).get<AttestationPage>(attestationPath(cli.org(command)), {
          level: options.level,
          epochId: options.epoch,
          systemId: options.system,
          from: dayBound(options.from, false),
          to: dayBound(options.to, true),
          limit: options.limit,
          cursor: options.cursor,
          includeTotal: options.total,
        });
        const summary = [
          `${page.attestations.length} attestation(s)${page.total === undefined ? '' : ` of ${page.total}`}`,
          page.nextCursor ? `more: --cursor ${page.nextCursor}` : '',
        ].filter(Boolean);
        await cli.print(command, {
          data: page,
          text: summary.join('\n'),
          table: page.attestations.length
            ? {
                columns: ['ID', 'LEVEL', 'EPOCH', 'TIMESTAMP', 'CONTROLS', 'SIGNED BY'],
                rows: page.attestations.map((record) => [
                  record.attestationId,
                  record.level,
                  record.epochId,
                  record.timestamp,
                  record.controlIds.join(','),
                  record.signature?.keyId ?? '-',
                ]),
              }
            : undefined,
        });
      },
    );

  attestations
    .command('show <attestationId>')
    .description('one attestation')
    .action(async (attestationId: string, _options, command: Command) => {
      const record = await cli
        .client(command)
        .get<AttestationRecord>(attestationPath(cli.org(command), attestationId));
      await cli.print(command, { data: record, text: recordText(record) });
    });

  attestations
    .command('epoch <epochId>')
    .description("an epoch's count, time span and Merkle root (to check an export is complete and unaltered)")
    .action(async (epochId: string, _options, command: Command) => {
      const epoch = await cli.client(command).get<EpochSummary>(epochPath(cli.org(command), epochId));
      await cli.print(command, {
        data: epoch,
        text: describe({
          epoch: epoch.epochId,
          count: `${epoch.count} (L0 ${epoch.levels.L0}, L2 ${epoch.levels.L2})`,
          from: epoch.firstTimestamp,
          to: epoch.lastTimestamp,
          merkleRoot: epoch.merkleRoot,
          algorithm: epoch.merkle.algorithm,
          leaves: epoch.merkle.leaves,
          order: epoch.merkle.order,
        }),
      });
    });
}
