import { type Command, Option } from 'commander';
import { FINDING_KINDS } from '../../../shared/vocabulary.js';
import { ApiError } from '../../api-client/client.js';
import { errorText } from '../../api-client/format.js';
import { auditFindingPath, auditPath, findingPath, requirementPath } from '../../api-client/paths.js';
import type { Finding, FindingList, Requirement } from '../../api-client/types.js';
import { type Cli, CommandRefusedError, parseTimestamp, UsageError } from '../cli.js';
import { describe } from '../output.js';
import {
  FINDING_COLUMNS,
  findingFields,
  findingRows,
  parseRequirementRef,
  section,
} from '../views/loop-view.js';

type Ref = { frameworkId: string; requirementId: string };

const collectRef = (value: string, previous: Ref[] = []) => [...previous, parseRequirementRef(value)];

const KIND_HELP = 'what was found (an open major_nonconformity caps its requirements at in_progress)';

/**
 * Each requirement of a finding with its live status and whether it is capped now: by this finding, or by
 * another open major nonconformity on the same requirement. A requirement the caller may not read (an
 * auditor limited to other frameworks) shows what the finding itself says.
 */
async function requirementRows(cli: Cli, command: Command, finding: Finding) {
  const client = cli.client(command);
  const orgId = cli.org(command);
  return Promise.all(
    finding.requirements.map(async (ref) => {
      const requirement = await client
        .get<Requirement>(requirementPath(orgId, ref.frameworkId, ref.requirementId))
        .catch((error: unknown) => {
          if (error instanceof ApiError) return undefined;
          throw error;
        });
      const cappedBy =
        requirement?.findings?.map((f) => f.findingId) ?? (finding.caps ? [finding.findingId] : []);
      const capped = cappedBy.length
        ? `yes (${cappedBy.map((id) => (id === finding.findingId ? 'this finding' : id)).join(', ')})`
        : 'no';
      return [
        ref.frameworkId,
        ref.requirementId,
        requirement?.status ?? ref.status,
        capped,
        requirement?.title,
      ];
    }),
  );
}

export function registerFindingCommands(program: Command, cli: Cli): void {
  const findings = program
    .command('findings')
    .description(
      'findings of internal audits (ISO/IEC 42001 10.2): nonconformities with root cause, corrective action and an effectiveness check',
    );

  findings
    .command('open <auditId>')
    .description('record a finding of an audit on requirements (write scope; a completed audit takes none)')
    .addOption(new Option('--kind <kind>', KIND_HELP).choices(FINDING_KINDS).makeOptionMandatory())
    .option(
      '--requirement <frameworkId:requirementId...>',
      'the requirements it is about: several, or the option again (quote ids with spaces)',
      collectRef,
    )
    .requiredOption('--description <text>', 'what was found')
    .option('--owner <name>', 'who owns the corrective action')
    .option(
      '--due <date>',
      'when the corrective action is due (YYYY-MM-DD or ISO date-time)',
      parseTimestamp('end'),
    )
    .addHelpText(
      'after',
      `
While a major nonconformity is open, each of its requirements counts at most as in_progress in scores, gaps
and coverage; only an effective check (\`comply findings check … --effective\`) closes it.

Example:
  $ comply --org acme findings open $AUDIT --kind major_nonconformity --requirement iso-42001:A.6.2.4 \\
      --requirement "eu-ai-act:Art. 15" --description "Models reach production without validation" \\
      --owner "Dana Ops" --due 2026-12-31`,
    )
    .action(
      async (
        auditId: string,
        options: { kind: string; requirement?: Ref[]; description: string; owner?: string; due?: string },
        command: Command,
      ) => {
        const finding = await cli
          .client(command)
          .post<Finding>(auditPath(cli.org(command), auditId, '/findings'), {
            kind: options.kind,
            requirements: options.requirement ?? [],
            description: options.description,
            owner: options.owner,
            dueDate: options.due,
          });
        await cli.print(command, {
          data: finding,
          text: describe(findingFields(finding)),
        });
      },
    );

  findings
    .command('list')
    .description('every finding of the org, oldest first')
    .addOption(new Option('--state <state>', 'only open or closed ones').choices(['open', 'closed']))
    .addOption(new Option('--kind <kind>', 'only this kind').choices(FINDING_KINDS))
    .action(async (options: { state?: string; kind?: string }, command: Command) => {
      const list = await cli.client(command).get<FindingList>(findingPath(cli.org(command)), {
        state: options.state,
        kind: options.kind,
      });
      await cli.print(command, {
        data: list,
        text: list.findings.length ? undefined : 'No findings.',
        table: list.findings.length
          ? { columns: FINDING_COLUMNS, rows: findingRows(list.findings) }
          : undefined,
      });
    });

  findings
    .command('show <findingId>')
    .description(
      'one finding: its requirements with their live status and whether they are capped, and its effectiveness checks',
    )
    .action(async (findingId: string, _options, command: Command) => {
      const finding = await cli.client(command).get<Finding>(findingPath(cli.org(command), findingId));
      if (cli.json(command)) {
        await cli.print(command, { data: finding });
        return;
      }
      const requirements = await requirementRows(cli, command, finding);
      await cli.print(command, {
        data: finding,
        text: [
          describe(findingFields(finding, false)),
          section('Requirements', ['FRAMEWORK', 'REQUIREMENT', 'STATUS', 'CAPPED', 'TITLE'], requirements),
          section(
            'Effectiveness checks',
            ['CHECKED', 'BY', 'EFFECTIVE', 'EVIDENCE', 'NOTE'],
            finding.checks.map((check) => [
              check.checkedAt,
              `${check.checkedBy.name} <${check.checkedBy.email}>`,
              check.effective ? 'yes' : 'no',
              check.evidenceIds.join(', ') || undefined,
              check.note,
            ]),
          ),
        ].join('\n\n'),
      });
    });

  findings
    .command('update <auditId> <findingId>')
    .description('set the root cause, corrective action, owner or due date of an open finding (write scope)')
    .option('--root-cause <text>', 'why it happened')
    .option('--action <text>', 'the corrective action taken or planned')
    .option('--owner <name>', 'who owns the corrective action')
    .option(
      '--due <date>',
      'when the corrective action is due (YYYY-MM-DD or ISO date-time)',
      parseTimestamp('end'),
    )
    .addHelpText(
      'after',
      `
Example:
  $ comply --org acme findings update $AUDIT $FINDING --root-cause "No gate in the pipeline" \\
      --action "Validation gate added to the release pipeline" --due 2026-12-15`,
    )
    .action(
      async (
        auditId: string,
        findingId: string,
        options: { rootCause?: string; action?: string; owner?: string; due?: string },
        command: Command,
      ) => {
        const body = {
          rootCause: options.rootCause,
          correctiveAction: options.action,
          owner: options.owner,
          dueDate: options.due,
        };
        if (Object.values(body).every((value) => value === undefined)) {
          throw new UsageError('Nothing to change: pass --root-cause, --action, --owner or --due');
        }
        const finding = await cli
          .client(command)
          .put<Finding>(auditFindingPath(cli.org(command), auditId, findingId), body);
        await cli.print(command, { data: finding, text: describe(findingFields(finding)) });
      },
    );

  findings
    .command('check <auditId> <findingId>')
    .description(
      'record an effectiveness check of the corrective action: only an effective one closes the finding (a signed-in approver or owner, `comply login`)',
    )
    .option('--effective', 'the corrective action worked: closes the finding (and releases a cap)')
    .option('--ineffective', 'it did not: the check is kept and the finding stays open')
    .requiredOption('--note <text>', 'what was checked and what it showed')
    .option('--evidence <evidenceIds...>', 'evidence the check rests on: several ids, or the option again')
    .addHelpText(
      'after',
      `
API keys cannot check findings: sign in as a person with \`comply login\` (an approver or owner).

Example:
  $ comply --org acme findings check $AUDIT $FINDING --effective --note "Gate blocks unvalidated models" \\
      --evidence ev_7Qm…`,
    )
    .action(
      async (
        auditId: string,
        findingId: string,
        options: { effective?: boolean; ineffective?: boolean; note: string; evidence?: string[] },
        command: Command,
      ) => {
        if (Boolean(options.effective) === Boolean(options.ineffective)) {
          throw new UsageError('Pass exactly one of --effective and --ineffective');
        }
        let finding: Finding;
        try {
          finding = await cli
            .client(command)
            .post<Finding>(auditFindingPath(cli.org(command), auditId, findingId, '/close'), {
              effective: Boolean(options.effective),
              note: options.note,
              evidenceIds: options.evidence,
            });
        } catch (error) {
          if (error instanceof ApiError && error.details.reason === 'person_required') {
            throw new CommandRefusedError(
              `${errorText(error)}\nSign in as an approver or owner with \`comply login\` (an API key, when set, takes precedence).`,
            );
          }
          throw error;
        }
        const check = finding.checks.at(-1);
        await cli.print(command, {
          data: finding,
          text:
            finding.state === 'closed'
              ? `Closed ${finding.findingId}: effective, checked by ${check?.checkedBy.name} at ${check?.checkedAt}` +
                `${finding.kind === 'major_nonconformity' ? '; its requirements are no longer capped' : ''}`
              : `Recorded an ineffective check of ${finding.findingId} by ${check?.checkedBy.name}: it stays open` +
                `${finding.caps ? ' and keeps capping its requirements at in_progress' : ''} (${finding.checks.length} check(s) so far)`,
        });
      },
    );
}
