import { type Command, InvalidArgumentError, Option } from 'commander';
import type { EvidencePage, EvidenceView } from '../../../features/evidence/evidence.service.js';
import { EVIDENCE_TYPES } from '../../../shared/vocabulary.js';
import { controlPath, evidencePath as orgEvidencePath, requirementPath } from '../../api-client/paths.js';
import type { ExpiringEvidenceList, RequirementEvidence } from '../../api-client/types.js';
import { type Cli, parseDate, parseInteger, parseTimestamp } from '../cli.js';
import { describe } from '../output.js';

/** An ISO/IEC 42001 control's evidence by default; with --framework, a requirement of that framework. */
const evidencePath = (org: string, requirementId: string, frameworkId: string | undefined) =>
  frameworkId === undefined
    ? controlPath(org, requirementId, '/evidence')
    : requirementPath(org, frameworkId, requirementId, '/evidence');

/** What the requirement routes return: the control evidence plus the framework and requirement. */
type Evidence = EvidenceView & Partial<Pick<RequirementEvidence, 'frameworkId'>>;

const frameworkOption = () =>
  new Option(
    '--framework <frameworkId>',
    'a requirement of this framework (e.g. eu-ai-act, nist-ai-rmf) instead of an ISO/IEC 42001 control',
  );

/** `--days`: a whole number of days ahead, 1..3650. */
function positiveDays(value: string): number {
  const days = parseInteger(value);
  if (days < 1 || days > 3650) throw new InvalidArgumentError('must be a number of days, 1–3650');
  return days;
}

const validity = (item: EvidenceView) =>
  item.expiresAt ? `${item.expiresAt.slice(0, 10)}${item.expired ? ' (expired)' : ''}` : 'never';

export function registerEvidenceCommands(program: Command, cli: Cli): void {
  const evidence = program
    .command('evidence')
    .description("a control's evidence: attestations, documents, links; with --framework, any requirement's");

  evidence
    .command('add')
    .argument(
      '<controlId>',
      'an ISO/IEC 42001 control, or with --framework a requirement id, e.g. "Art. 26(6)"',
    )
    .description(
      'attach evidence to a control of --org, or with --framework to a requirement of that framework',
    )
    .addOption(frameworkOption())
    .addOption(new Option('--type <type>', 'kind of evidence').choices(EVIDENCE_TYPES).makeOptionMandatory())
    .requiredOption('--title <title>', 'what it is')
    .option('--description <text>', 'more detail')
    .option('--file-url <url>', 'absolute http(s) URL of the file (required for document and link)')
    .option('--effective <date>', 'valid from (YYYY-MM-DD or ISO date-time)', parseDate)
    .option('--expires <date>', 'valid until (YYYY-MM-DD or ISO date-time)', parseDate)
    .addHelpText(
      'after',
      `
Example:
  $ comply evidence add A.6.2.8 --type link --title "Logging policy" --file-url https://example.com/logging
  $ comply evidence add --framework eu-ai-act "Art. 26(6)" --type document --title "Log retention" \\
      --file-url https://example.com/retention.pdf --expires 2027-06-30`,
    )
    .action(
      async (
        controlId: string,
        options: {
          framework?: string;
          type: string;
          title: string;
          description?: string;
          fileUrl?: string;
          effective?: string;
          expires?: string;
        },
        command: Command,
      ) => {
        const item = await cli
          .client(command)
          .post<Evidence>(evidencePath(cli.org(command), controlId, options.framework), {
            type: options.type,
            title: options.title,
            description: options.description,
            fileUrl: options.fileUrl,
            effectiveDate: options.effective,
            expiresAt: options.expires,
          });
        await cli.print(command, {
          data: item,
          text: describe({
            evidenceId: item.evidenceId,
            ...(item.frameworkId === undefined
              ? { control: item.controlId }
              : { framework: item.frameworkId, requirement: item.controlId }),
            type: item.type,
            title: item.title,
            url: item.fileUrl,
            effective: item.effectiveDate,
            expires: validity(item),
            created: item.createdAt,
          }),
        });
      },
    );

  evidence
    .command('list')
    .argument(
      '<controlId>',
      'an ISO/IEC 42001 control, or with --framework a requirement id, e.g. "GOVERN 1.1"',
    )
    .description("a page of a control's evidence, or with --framework a requirement's, newest first")
    .addOption(frameworkOption())
    .addOption(new Option('--type <type>', 'only this kind').choices(EVIDENCE_TYPES))
    .option('--limit <n>', 'page size, 1..200', parseInteger, 50)
    .option('--offset <n>', 'items to skip', parseInteger, 0)
    .addHelpText(
      'after',
      `
Example:
  $ comply evidence list A.6.2.8 --type link
  $ comply evidence list --framework nist-ai-rmf "GOVERN 1.1" --json`,
    )
    .action(
      async (
        controlId: string,
        options: { framework?: string; type?: string; limit: number; offset: number },
        command: Command,
      ) => {
        const { framework, ...query } = options;
        const page = await cli
          .client(command)
          .get<EvidencePage>(evidencePath(cli.org(command), controlId, framework), query);
        const last = page.offset + page.evidence.length;
        await cli.print(command, {
          data: page,
          text: page.total ? `${page.offset + 1}–${last} of ${page.total}` : 'no evidence',
          table: page.evidence.length
            ? {
                columns: ['ID', 'TYPE', 'CREATED', 'EXPIRES', 'TITLE'],
                rows: page.evidence.map((item) => [
                  item.evidenceId,
                  item.type,
                  item.createdAt,
                  validity(item),
                  item.title,
                ]),
              }
            : undefined,
        });
      },
    );

  evidence
    .command('expiring')
    .description(
      "the org's evidence that expires soon, across every framework, soonest first: what to renew next",
    )
    .addOption(
      new Option('--days <n>', 'expiring within this many days from now (default 30)')
        .argParser(positiveDays)
        .conflicts(['from', 'to']),
    )
    .option(
      '--from <date>',
      'expiring at or after this (default now; earlier lists expired evidence too)',
      parseTimestamp('start'),
    )
    .option(
      '--to <date>',
      'expiring up to this date, inclusive (default 30 days after --from)',
      parseTimestamp('end'),
    )
    .option('--limit <n>', 'page size, 1..200', parseInteger, 50)
    .option('--offset <n>', 'items to skip', parseInteger, 0)
    .addHelpText(
      'after',
      `
Evidence without an expiry never appears. Each item names its framework and requirement, so
\`comply evidence add\` can attach the renewal to the same place.

Example:
  $ comply evidence expiring                 # the next 30 days
  $ comply evidence expiring --days 90 --json
  $ comply evidence expiring --from 2026-01-01 --to 2026-03-31`,
    )
    .action(
      async (
        options: { days?: number; from?: string; to?: string; limit: number; offset: number },
        command: Command,
      ) => {
        const to =
          options.days === undefined
            ? options.to
            : new Date(Date.now() + options.days * 24 * 60 * 60 * 1000).toISOString();
        const page = await cli
          .client(command)
          .get<ExpiringEvidenceList>(orgEvidencePath(cli.org(command), '/expiring'), {
            from: options.from,
            to,
            limit: options.limit,
            offset: options.offset,
          });
        const range = `${page.from.slice(0, 10)} → ${page.to.slice(0, 10)}`;
        const last = page.offset + page.evidence.length;
        await cli.print(command, {
          data: page,
          text: page.total
            ? `${page.total} expiring ${range}${page.total > page.evidence.length ? ` (${page.offset + 1}–${last} shown)` : ''}`
            : `no evidence expires ${range}`,
          table: page.evidence.length
            ? {
                columns: ['EXPIRES', 'FRAMEWORK', 'REQUIREMENT', 'TYPE', 'TITLE', 'ID'],
                rows: page.evidence.map((item) => [
                  `${item.expiresAt.slice(0, 10)}${item.expired ? ' (expired)' : ''}`,
                  item.frameworkId,
                  item.requirementId,
                  item.type,
                  item.title,
                  item.evidenceId,
                ]),
              }
            : undefined,
        });
      },
    );
}
