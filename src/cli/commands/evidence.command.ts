import { type Command, Option } from 'commander';
import type { EvidencePage, EvidenceView } from '../../evidence/evidence.service.js';
import { EVIDENCE_TYPES } from '../../vocabulary.js';
import { type Cli, parseInteger } from '../cli.js';
import { describe, print } from '../output.js';

const evidencePath = (org: string, controlId: string) =>
  `/orgs/${encodeURIComponent(org)}/controls/${encodeURIComponent(controlId)}/evidence`;

const validity = (item: EvidenceView) =>
  item.expiresAt ? `${item.expiresAt.slice(0, 10)}${item.expired ? ' (expired)' : ''}` : 'never';

export function registerEvidenceCommands(program: Command, cli: Cli): void {
  const evidence = program
    .command('evidence')
    .description("a control's evidence: attestations, documents, links");

  evidence
    .command('add <controlId>')
    .description('attach evidence to a control of --org')
    .addOption(new Option('--type <type>', 'kind of evidence').choices(EVIDENCE_TYPES).makeOptionMandatory())
    .requiredOption('--title <title>', 'what it is')
    .option('--description <text>', 'more detail')
    .option('--file-url <url>', 'absolute http(s) URL of the file (required for document and link)')
    .option('--effective <date>', 'valid from (YYYY-MM-DD or ISO date-time)')
    .option('--expires <date>', 'valid until (YYYY-MM-DD or ISO date-time)')
    .action(
      async (
        controlId: string,
        options: {
          type: string;
          title: string;
          description?: string;
          fileUrl?: string;
          effective?: string;
          expires?: string;
        },
        command: Command,
      ) => {
        const item = await cli.client(command).post<EvidenceView>(evidencePath(cli.org(command), controlId), {
          type: options.type,
          title: options.title,
          description: options.description,
          fileUrl: options.fileUrl,
          effectiveDate: options.effective,
          expiresAt: options.expires,
        });
        await print(
          { json: cli.json(command) },
          {
            data: item,
            text: describe({
              evidenceId: item.evidenceId,
              control: item.controlId,
              type: item.type,
              title: item.title,
              url: item.fileUrl,
              effective: item.effectiveDate,
              expires: validity(item),
              created: item.createdAt,
            }),
          },
        );
      },
    );

  evidence
    .command('list <controlId>')
    .description("a page of a control's evidence, newest first")
    .addOption(new Option('--type <type>', 'only this kind').choices(EVIDENCE_TYPES))
    .option('--limit <n>', 'page size, 1..200', parseInteger, 50)
    .option('--offset <n>', 'items to skip', parseInteger, 0)
    .action(
      async (
        controlId: string,
        options: { type?: string; limit: number; offset: number },
        command: Command,
      ) => {
        const page = await cli
          .client(command)
          .get<EvidencePage>(evidencePath(cli.org(command), controlId), options);
        const last = page.offset + page.evidence.length;
        await print(
          { json: cli.json(command) },
          {
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
          },
        );
      },
    );
}
