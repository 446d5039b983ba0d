import type { Command } from 'commander';
import { auditPath } from '../../api-client/paths.js';
import type { FindingList, InternalAudit, InternalAuditList } from '../../api-client/types.js';
import { type Cli, csv, parseTimestamp } from '../cli.js';
import { describe } from '../output.js';
import { day, FINDING_COLUMNS, findingRows } from '../views/loop-view.js';

const auditFields = (audit: InternalAudit) => ({
  auditId: audit.auditId,
  title: audit.title,
  state: audit.state,
  frameworks: audit.frameworkIds.join(', '),
  'lead auditor': audit.leadAuditor,
  planned: `${day(audit.plannedStart)} → ${day(audit.plannedEnd)}`,
  criteria: audit.criteria,
  started: audit.startedAt,
  completed: audit.completedAt,
  conclusion: audit.conclusion,
  findings: `${audit.findings.open} open, ${audit.findings.closed} closed${Object.entries(
    audit.findings.byKind,
  )
    .filter(([, count]) => count > 0)
    .map(([kind, count]) => `; ${count} ${kind.replace('_', ' ')}`)
    .join('')}`,
});

export function registerAuditCommands(program: Command, cli: Cli): void {
  const audits = program
    .command('audits')
    .description(
      'internal audits (ISO/IEC 42001 9.2): plan, start, complete with a conclusion; see also `findings`',
    );

  audits
    .command('plan')
    .description('plan an internal audit over chosen frameworks (write scope)')
    .requiredOption('--title <title>', 'what the audit is called, e.g. "Internal audit 2026"')
    .requiredOption(
      '--frameworks <list>',
      'the frameworks it covers, comma-separated ids (iso-42001,eu-ai-act)',
      csv,
    )
    .requiredOption('--lead <name>', 'the lead auditor')
    .requiredOption(
      '--start <date>',
      'planned start (YYYY-MM-DD or an ISO date-time)',
      parseTimestamp('start'),
    )
    .requiredOption('--end <date>', 'planned end, not before the start', parseTimestamp('end'))
    .option('--criteria <text>', 'the audit criteria, e.g. "ISO/IEC 42001:2023 clauses 4–10 and Annex A"')
    .addHelpText(
      'after',
      `
Example:
  $ comply --org acme audits plan --title "Internal audit 2026" --frameworks iso-42001,eu-ai-act \\
      --lead "Ines Internal" --start 2026-11-01 --end 2026-11-15`,
    )
    .action(
      async (
        options: {
          title: string;
          frameworks: string[];
          lead: string;
          start: string;
          end: string;
          criteria?: string;
        },
        command: Command,
      ) => {
        const audit = await cli.client(command).post<InternalAudit>(auditPath(cli.org(command)), {
          title: options.title,
          frameworkIds: options.frameworks,
          criteria: options.criteria,
          leadAuditor: options.lead,
          plannedStart: options.start,
          plannedEnd: options.end,
        });
        await cli.print(command, { data: audit, text: describe(auditFields(audit)) });
      },
    );

  audits
    .command('list')
    .description('the internal audits, latest planned first, with their findings counted')
    .action(async (_options, command: Command) => {
      const list = await cli.client(command).get<InternalAuditList>(auditPath(cli.org(command)));
      await cli.print(command, {
        data: list,
        table: {
          columns: ['AUDIT ID', 'STATE', 'PLANNED', 'FRAMEWORKS', 'LEAD', 'OPEN', 'CLOSED', 'TITLE'],
          rows: list.audits.map((audit) => [
            audit.auditId,
            audit.state,
            `${day(audit.plannedStart)} → ${day(audit.plannedEnd)}`,
            audit.frameworkIds.join(','),
            audit.leadAuditor,
            audit.findings.open,
            audit.findings.closed,
            audit.title,
          ]),
        },
      });
    });

  audits
    .command('show <auditId>')
    .description('one audit and its findings (--json: {audit, findings})')
    .action(async (auditId: string, _options, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      const [audit, list] = await Promise.all([
        client.get<InternalAudit>(auditPath(orgId, auditId)),
        client.get<FindingList>(auditPath(orgId, auditId, '/findings')),
      ]);
      await cli.print(command, {
        data: { audit, findings: list.findings },
        text: `${describe(auditFields(audit))}\n${list.findings.length ? '' : '\nNo findings yet: `comply findings open <auditId> …`'}`,
        table: list.findings.length
          ? { columns: FINDING_COLUMNS, rows: findingRows(list.findings) }
          : undefined,
      });
    });

  /** A step of the audit's life (`PUT`): prints the audit as it is now. */
  const move = async (command: Command, auditId: string, body: Record<string, unknown>) => {
    const audit = await cli.client(command).put<InternalAudit>(auditPath(cli.org(command), auditId), body);
    await cli.print(command, { data: audit, text: describe(auditFields(audit)) });
  };

  audits
    .command('start <auditId>')
    .description('start a planned audit: planned → in_progress')
    .action((auditId: string, _options, command: Command) =>
      move(command, auditId, { state: 'in_progress' }),
    );

  audits
    .command('complete <auditId>')
    .description(
      'complete an audit in progress with its conclusion; a completed audit takes no more findings',
    )
    .requiredOption(
      '--conclusion <text>',
      'what the audit concluded, e.g. "The AIMS conforms, one minor nonconformity"',
    )
    .action((auditId: string, options: { conclusion: string }, command: Command) =>
      move(command, auditId, { state: 'completed', conclusion: options.conclusion }),
    );
}
