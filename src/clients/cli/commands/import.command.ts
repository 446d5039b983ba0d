import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ISO_42001 } from '../../../shared/vocabulary.js';
import { ApiError } from '../../api-client/client.js';
import { ctePath, requirementImportPath } from '../../api-client/paths.js';
import type {
  ImportResult,
  RequirementImportResult,
  RequirementImportRowError,
} from '../../api-client/types.js';
import { type Cli, CommandRefusedError, UsageError } from '../cli.js';
import { describe, print, withProgress } from '../output.js';
import { plainTable } from '../ui/plain-table.js';

export function registerImportCommand(program: Command, cli: Cli): void {
  const imports = program.command('import').description('bring outside content into comply');

  imports
    .command('oscal <file>')
    .description('import an OSCAL catalog (JSON) as a framework (platform key); again to replace it')
    .option('--id <frameworkId>', 'store it under this id instead of a slug of its title')
    .action(async (file: string, options: { id?: string }, command: Command) => {
      const json = cli.json(command);
      let document: unknown;
      try {
        document = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
      }
      const client = cli.client(command);
      const result = await withProgress({ json }, `Importing ${file}`, () =>
        client.request<ImportResult>('POST', ctePath('frameworks', 'import'), {
          query: { frameworkId: options.id },
          body: document,
        }),
      );
      await print(
        { json },
        {
          data: result,
          text: describe({
            framework: `${result.id}  ${result.name}`,
            version: result.version,
            requirements: result.controlCount,
            domains: result.domains,
            'withdrawn skipped': result.skippedWithdrawn,
            outcome: result.outcome,
          }),
        },
      );
    });

  imports
    .command('statuses <file>')
    .description(
      'record the statuses, applicability, notes and owners of many requirements from a CSV file, all or none',
    )
    .option('--framework <frameworkId>', 'the framework the rows belong to', ISO_42001)
    .option('--reviewer <name>', 'who decided (with an API key; a signed-in person is the reviewer)')
    .option('--dry-run', 'check the file and show what it would change, writing nothing')
    .addHelpText(
      'after',
      `
The first row names the columns (any case): requirementId, then any of status, applicable,
justification, note, owner. A title or domain column is read and ignored. An empty cell leaves
that column as it is; a row equal to the record changes nothing. status is not_started,
in_progress or implemented; applicable is true/false (or yes/no), and an exclusion needs a
justification. Every row is checked first: one bad row and nothing is written (exit 1).

Example file:
  requirementId,status,applicable,justification,note
  A.2.2,implemented,,,"Policy approved by the board, 2026-01-12"
  A.6.2.8,in_progress,,,Event logging on in staging
  A.10.4,,false,"No customers use our AI systems directly",

Example:
  $ comply import statuses statuses.csv --dry-run
  $ comply import statuses eu-ai-act.csv --framework eu-ai-act --reviewer "Rita Officer"`,
    )
    .action(
      async (
        file: string,
        options: { framework: string; reviewer?: string; dryRun?: boolean },
        command: Command,
      ) => {
        const json = cli.json(command);
        let text: string;
        try {
          text = await readFile(file, 'utf8');
        } catch (error) {
          throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
        }
        const org = cli.org(command);
        const client = cli.client(command, { progress: false });
        const label = `${options.dryRun ? 'Checking' : 'Importing'} ${file} into ${options.framework}`;
        let result: RequirementImportResult;
        try {
          result = await withProgress({ json }, label, () =>
            client.request<RequirementImportResult>('POST', requirementImportPath(org, options.framework), {
              query: { dryRun: options.dryRun, reviewer: options.reviewer },
              body: text,
              contentType: 'text/csv; charset=utf-8',
            }),
          );
        } catch (error) {
          throw refusal(error, file, json);
        }
        const changed = result.rows.filter((row) => row.outcome !== 'unchanged');
        await print(
          { json },
          {
            data: result,
            text: summary(file, result),
            table: changed.length
              ? {
                  columns: ['LINE', 'REQUIREMENT', 'OUTCOME', 'CHANGES'],
                  rows: changed.map((row) => [
                    row.row,
                    row.requirementId,
                    row.outcome,
                    row.fields.join(', '),
                  ]),
                }
              : undefined,
          },
        );
      },
    );
}

function summary(file: string, result: RequirementImportResult): string {
  const { created, changed, unchanged } = result.counts;
  const counts = `${changed} changed, ${created} created, ${unchanged} unchanged`;
  return result.dryRun
    ? `Dry run: ${file} checks out; importing it into ${result.frameworkId} would leave ${counts}. Nothing was written.`
    : `Imported ${file} into ${result.frameworkId}: ${counts}.`;
}

/**
 * A refused file: its bad rows as a table on standard error (the error envelope on standard output with
 * `--json`), then exit 1. Any other failure goes on to the CLI's one error handler.
 */
function refusal(error: unknown, file: string, json: boolean): unknown {
  if (!(error instanceof ApiError) || error.details.reason !== 'invalid_rows') return error;
  const rows = error.details.rows as RequirementImportRowError[];
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ error: { code: error.code, message: error.message, details: error.details } }, null, 2)}\n`,
    );
  } else {
    const table = plainTable({
      columns: ['LINE', 'COLUMN', 'PROBLEM'],
      rows: rows.map((row) => [row.row, row.column, row.message]),
    });
    process.stderr.write(`${table}\n`);
  }
  const lines = new Set(rows.map((row) => row.row)).size;
  return new CommandRefusedError(
    `${file}: ${lines === 1 ? 'one row was' : `${lines} rows were`} refused${json ? '' : ' (above)'}; nothing was imported`,
  );
}
