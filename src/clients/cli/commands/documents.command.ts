import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { documentPath, documentVersionPath } from '../../api-client/paths.js';
import type {
  ControlledDocument,
  ControlledDocumentPage,
  DocumentVersion,
  DocumentVersionDiff,
  DocumentVersionList,
} from '../../api-client/types.js';
import { type Cli, parseInteger, UsageError } from '../cli.js';
import { describe } from '../output.js';

const KINDS = ['policy', 'procedure', 'plan', 'record'];

type Summary = NonNullable<ControlledDocument['published']>;

/** `frameworkId:requirementId` (the requirement id may hold colons, spaces and parentheses), repeatable. */
function collectRequirement(value: string, previous: { frameworkId: string; requirementId: string }[] = []) {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) {
    throw new InvalidArgumentError('expected frameworkId:requirementId, e.g. iso-42001:A.2.2');
  }
  return [...previous, { frameworkId: value.slice(0, colon), requirementId: value.slice(colon + 1) }];
}

function readContent(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

const versionLine = (v: Summary | null) =>
  v
    ? `v${v.version} ${v.state}${v.publishedAt ? ` ${v.publishedAt.slice(0, 10)}` : ''} (${v.versionId})`
    : '-';

function documentText(document: ControlledDocument): string {
  return describe({
    documentId: document.documentId,
    title: document.title,
    kind: document.kind,
    owner: document.owner,
    requirements: document.requirements.map((r) => `${r.frameworkId} ${r.requirementId}`).join(', ') || '-',
    'review every': document.reviewEvery,
    'next review':
      document.nextReviewAt && `${document.nextReviewAt}${document.reviewDue ? ' (due for review)' : ''}`,
    published: versionLine(document.published),
    draft: versionLine(document.draft),
    updated: document.updatedAt,
  });
}

function versionText(version: DocumentVersion): string {
  const head = describe({
    versionId: version.versionId,
    version: version.version,
    state: version.state,
    author: `${version.author.name} (${version.author.type})`,
    editors: version.editors.map((e) => e.name).join(', ') || '-',
    changelog: version.changelog,
    'approved by': version.approvedBy && `${version.approvedBy.name} <${version.approvedBy.email}>`,
    published: version.publishedAt,
    'superseded by': version.supersededBy,
    'content hash': version.contentHash,
    'file URL': version.fileUrl,
    evidence: version.evidence.map((e) => `${e.frameworkId} ${e.requirementId}`).join(', ') || '-',
  });
  return version.content === null ? head : `${head}\n\n${version.content}`;
}

/** The hunks as a unified diff. */
export function diffText(diff: DocumentVersionDiff): string {
  const lines = [
    `--- version ${diff.from.version} (${diff.from.state})`,
    `+++ version ${diff.to.version} (${diff.to.state})`,
  ];
  for (const hunk of diff.changes) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  if (!diff.changes.length) lines.push('(no changes)');
  return lines.join('\n');
}

export function registerDocumentCommands(program: Command, cli: Cli): void {
  const documents = program
    .command('documents')
    .description(
      'controlled documents (policies, procedures, plans, records): versions drafted, approved by a second person, published as evidence',
    );

  const printDocument = async (command: Command, document: ControlledDocument) =>
    cli.print(command, { data: document, text: documentText(document) });

  documents
    .command('create')
    .description('create a document; its text comes with `documents draft`')
    .requiredOption('--title <title>', 'the title')
    .addOption(new Option('--kind <kind>', 'what it is').choices(KINDS).makeOptionMandatory())
    .option('--owner <owner>', 'who owns it')
    .option(
      '--requirement <frameworkId:requirementId>',
      'a requirement it serves (repeatable); each published version is evidence on it',
      collectRequirement,
    )
    .option('--review-every <duration>', 'review cadence, an ISO 8601 duration: P1Y, P6M, P90D')
    .addHelpText(
      'after',
      `
Example:
  $ comply documents create --title "AI policy" --kind policy --owner CISO \\
      --requirement iso-42001:A.2.2 --requirement iso-42001-clauses:5.2 --review-every P1Y`,
    )
    .action(
      async (
        options: {
          title: string;
          kind: string;
          owner?: string;
          requirement?: { frameworkId: string; requirementId: string }[];
          reviewEvery?: string;
        },
        command: Command,
      ) => {
        const created = await cli.client(command).post<ControlledDocument>(documentPath(cli.org(command)), {
          title: options.title,
          kind: options.kind,
          owner: options.owner,
          requirements: options.requirement ?? [],
          reviewEvery: options.reviewEvery,
        });
        await printDocument(command, created);
      },
    );

  documents
    .command('update <documentId>')
    .description("change a document's title, owner, requirements (replaces them) or review cadence")
    .option('--title <title>', 'the title')
    .option('--owner <owner>', 'who owns it ("" removes it)')
    .option(
      '--requirement <frameworkId:requirementId>',
      'a requirement it serves (repeatable)',
      collectRequirement,
    )
    .option('--review-every <duration>', 'review cadence, an ISO 8601 duration ("" removes it)')
    .action(
      async (
        documentId: string,
        options: {
          title?: string;
          owner?: string;
          requirement?: { frameworkId: string; requirementId: string }[];
          reviewEvery?: string;
        },
        command: Command,
      ) => {
        const body: Record<string, unknown> = {};
        if (options.title !== undefined) body.title = options.title;
        if (options.owner !== undefined) body.owner = options.owner === '' ? null : options.owner;
        if (options.requirement) body.requirements = options.requirement;
        if (options.reviewEvery !== undefined)
          body.reviewEvery = options.reviewEvery === '' ? null : options.reviewEvery;
        if (!Object.keys(body).length)
          throw new UsageError('Nothing to change: give --title, --owner, --requirement or --review-every');
        const updated = await cli
          .client(command)
          .put<ControlledDocument>(documentPath(cli.org(command), documentId), body);
        await printDocument(command, updated);
      },
    );

  documents
    .command('list')
    .description("the org's documents, the next review soonest first")
    .addOption(new Option('--kind <kind>', 'only this kind').choices(KINDS))
    .option('--owner <owner>', "only this owner's")
    .option('--limit <n>', 'page size, 1..200', parseInteger)
    .option('--offset <n>', 'items to skip', parseInteger)
    .action(
      async (
        options: { kind?: string; owner?: string; limit?: number; offset?: number },
        command: Command,
      ) => {
        const page = await cli.client(command).get<ControlledDocumentPage>(documentPath(cli.org(command)), {
          kind: options.kind,
          owner: options.owner,
          limit: options.limit,
          offset: options.offset,
        });
        await cli.print(command, {
          data: page,
          text: `${page.documents.length} of ${page.total}`,
          table: {
            columns: ['ID', 'KIND', 'TITLE', 'OWNER', 'PUBLISHED', 'DRAFT', 'NEXT REVIEW'],
            rows: page.documents.map((d) => [
              d.documentId,
              d.kind,
              d.title,
              d.owner ?? '',
              d.published ? `v${d.published.version}` : '',
              d.draft ? `v${d.draft.version}` : '',
              d.nextReviewAt ? `${d.nextReviewAt.slice(0, 10)}${d.reviewDue ? ' (due)' : ''}` : '',
            ]),
          },
        });
      },
    );

  documents
    .command('show <documentId> [versionId]')
    .description('a document and its versions; with a versionId, that version and its content')
    .action(async (documentId: string, versionId: string | undefined, _options, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      if (versionId !== undefined) {
        const version = await client.get<DocumentVersion>(documentVersionPath(orgId, documentId, versionId));
        await cli.print(command, { data: version, text: versionText(version) });
        return;
      }
      const document = await client.get<ControlledDocument>(documentPath(orgId, documentId));
      if (cli.json(command)) {
        await cli.print(command, { data: document });
        return;
      }
      const { versions } = await client.get<DocumentVersionList>(documentVersionPath(orgId, documentId));
      await cli.print(command, {
        data: document,
        text: `${documentText(document)}\n\nVersions (${versions.length})`,
        table: {
          columns: ['VERSION', 'STATE', 'ID', 'AUTHOR', 'APPROVED BY', 'PUBLISHED', 'CHANGELOG'],
          rows: versions.map((v) => [
            v.version,
            v.state,
            v.versionId,
            v.author.name,
            v.approvedBy?.name ?? '',
            v.publishedAt?.slice(0, 10) ?? '',
            v.changelog,
          ]),
        },
      });
    });

  documents
    .command('draft <documentId>')
    .description(
      "write the document's draft from a Markdown file (or a file URL): a new version, or the draft in progress edited",
    )
    .option('--file <path>', 'the Markdown ("-" reads stdin), at most 1 MiB')
    .option('--file-url <url>', 'where the document is kept instead (http or https)')
    .option('--changelog <text>', 'what changed and why (required for a new version)')
    .addHelpText(
      'after',
      `
Examples:
  $ comply documents draft doc_… --file ai-policy.md --changelog "Adds the roles section"
  $ comply documents draft doc_… --file-url https://intranet.example.com/ai-policy.pdf --changelog "Issued"`,
    )
    .action(
      async (
        documentId: string,
        options: { file?: string; fileUrl?: string; changelog?: string },
        command: Command,
      ) => {
        if (options.file !== undefined && options.fileUrl !== undefined) {
          throw new UsageError('Give --file or --file-url, not both');
        }
        const body: Record<string, unknown> = {};
        if (options.file !== undefined) body.content = readContent(options.file);
        if (options.fileUrl !== undefined) body.fileUrl = options.fileUrl;
        if (options.changelog !== undefined) body.changelog = options.changelog;
        const client = cli.client(command);
        const orgId = cli.org(command);
        const document = await client.get<ControlledDocument>(documentPath(orgId, documentId));
        let version: DocumentVersion;
        if (document.draft) {
          if (!Object.keys(body).length)
            throw new UsageError('Nothing to change: give --file, --file-url or --changelog');
          version = await client.put<DocumentVersion>(
            documentVersionPath(orgId, documentId, document.draft.versionId),
            body,
          );
        } else {
          if (body.content === undefined && body.fileUrl === undefined) {
            throw new UsageError('A new version needs --file or --file-url');
          }
          if (body.changelog === undefined) throw new UsageError('A new version needs --changelog');
          version = await client.post<DocumentVersion>(documentVersionPath(orgId, documentId), body);
        }
        await cli.print(command, {
          data: version,
          text: `${document.draft ? 'Updated' : 'Started'} the draft: version ${version.version} (${version.versionId}). A second person approves it with \`comply documents approve ${documentId} ${version.versionId}\`.`,
        });
      },
    );

  documents
    .command('approve <documentId> <versionId>')
    .description(
      'approve a draft and publish it: a signed-in approver or owner (`comply login`) who did not write it',
    )
    .action(async (documentId: string, versionId: string, _options, command: Command) => {
      const version = await cli
        .client(command)
        .post<DocumentVersion>(
          documentVersionPath(cli.org(command), documentId, versionId, '/approve'),
          undefined,
        );
      await cli.print(command, {
        data: version,
        text: `Published version ${version.version} (${version.versionId}), content hash ${version.contentHash}; evidence on ${version.evidence.length} requirement(s).`,
      });
    });

  documents
    .command('diff <documentId> <versionId>')
    .description('what changed in a version: a unified diff against the version before it, or --against')
    .option('--against <versionId>', 'the version to compare with (default: the one numbered just before)')
    .action(
      async (documentId: string, versionId: string, options: { against?: string }, command: Command) => {
        const client = cli.client(command);
        const orgId = cli.org(command);
        let against = options.against;
        if (against === undefined) {
          const { versions } = await client.get<DocumentVersionList>(documentVersionPath(orgId, documentId));
          const index = versions.findIndex((v) => v.versionId === versionId);
          if (index < 0) throw new UsageError(`${versionId} is not a version of ${documentId}`);
          const before = versions[index + 1];
          if (!before)
            throw new UsageError(`Version ${versions[index].version} is the first: give --against`);
          against = before.versionId;
        }
        const diff = await client.get<DocumentVersionDiff>(
          documentVersionPath(orgId, documentId, versionId, '/diff'),
          { against },
        );
        await cli.print(command, { data: diff, text: diffText(diff) });
      },
    );

  documents
    .command('delete <documentId>')
    .description('delete a document never published, with its draft')
    .action(async (documentId: string, _options, command: Command) => {
      await cli.client(command).delete(documentPath(cli.org(command), documentId));
      await cli.print(command, { data: { documentId, deleted: true }, text: `Deleted ${documentId}.` });
    });
}
