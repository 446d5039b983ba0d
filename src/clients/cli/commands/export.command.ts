import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { ISO_42001, SOA_FORMATS } from '../../../shared/vocabulary.js';
import type { Query, RawResponse } from '../../api-client/client.js';
import { exportPath } from '../../api-client/paths.js';
import { type Cli, UsageError } from '../cli.js';
import { print, withProgress } from '../output.js';
import { resolveSnapshot } from '../views/snapshot-ref.js';

const BINARY_TYPES = ['application/zip', 'application/pdf'];

interface Target {
  output?: string;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Fetches one export and writes it to `--output`, or to stdout when none is given (then stdout holds
 * the document alone, for pipes). A binary document is never written to a terminal.
 */
async function download(
  cli: Cli,
  command: Command,
  label: string,
  path: string,
  query: Query,
  target: Target,
) {
  const json = cli.json(command);
  const client = cli.client(command);
  const response: RawResponse = await withProgress({ json }, label, () => client.raw('GET', path, { query }));
  const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
  if (!target.output) {
    if (process.stdout.isTTY && BINARY_TYPES.some((type) => contentType.startsWith(type))) {
      throw new UsageError(
        `refusing to write ${contentType} to a terminal: use -o <file> or redirect stdout`,
      );
    }
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(response.body, (error) => (error ? reject(error) : resolve())),
    );
    return;
  }
  await writeFile(target.output, response.body);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;
  await print(
    { json },
    {
      data: { file: target.output, bytes: response.body.length, contentType, fileName },
      text: `wrote ${target.output} (${size(response.body.length)}, ${contentType.split(';')[0]})`,
    },
  );
}

export function registerExportCommands(program: Command, cli: Cli): void {
  const exports = program
    .command('export')
    .description('export the org for auditors and pipelines: OSCAL package or Statement of Applicability');

  exports
    .command('oscal')
    .description(
      'the OSCAL 1.2.1 package of one framework (ISO/IEC 42001 by default): five documents, each valid against NIST’s schema',
    )
    .option(
      '--framework <frameworkId>',
      `the framework of the package: any of \`comply frameworks\`, built in or imported (default ${ISO_42001})`,
    )
    .option('--snapshot <snapshot>', `the state frozen in this snapshot, by label or id (${ISO_42001} only)`)
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--zip', 'the five documents as a zip archive instead of the JSON envelope')
    .addHelpText(
      'after',
      `
The catalog holds the framework's requirements, the system security plan the org's effective status of
each (recorded by the org, or inferred through the crosswalk), the assessment results what was found.

Example:
  $ comply export oscal -o oscal.json
  $ comply export oscal --framework eu-ai-act --zip -o eu-ai-act-oscal.zip
  $ comply export oscal --snapshot "release 1.4" -o release-1.4-oscal.json`,
    )
    .action(
      async (
        options: Target & { zip?: boolean; framework?: string; snapshot?: string },
        command: Command,
      ) => {
        const org = cli.org(command);
        const snapshotId =
          options.snapshot === undefined
            ? undefined
            : await resolveSnapshot(cli.client(command), org, options.snapshot);
        await download(
          cli,
          command,
          `Exporting the OSCAL package${options.framework ? ` of ${options.framework}` : ''}`,
          exportPath(org, 'oscal'),
          { format: options.zip ? 'zip' : undefined, frameworkId: options.framework, snapshotId },
          options,
        );
      },
    );

  exports
    .command('soa')
    .description('the Statement of Applicability of every ISO/IEC 42001 Annex A control')
    .addOption(new Option('--format <format>', 'document format').choices(SOA_FORMATS).default('json'))
    .option('--snapshot <snapshot>', 'the state frozen in this compliance snapshot, by label or id')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (options: Target & { format: string; snapshot?: string }, command: Command) => {
      const org = cli.org(command);
      const snapshotId =
        options.snapshot === undefined
          ? undefined
          : await resolveSnapshot(cli.client(command), org, options.snapshot);
      await download(
        cli,
        command,
        'Exporting the Statement of Applicability',
        exportPath(org, 'soa'),
        { format: options.format, snapshotId },
        options,
      );
    });
}
