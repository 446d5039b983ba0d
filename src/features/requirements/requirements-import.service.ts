/**
 * Bulk entry: an organization's statuses, applicability, notes and owners for many requirements of one
 * framework at once, from a spreadsheet's CSV or a JSON list of rows.
 *
 * Rules kept here:
 * - All or nothing. Every row is checked before anything is written; any bad row refuses the whole import
 *   with a `400` whose `details.rows` lists every bad row (`{row, column, message}`). The writes then run
 *   in one transaction through the records store (`writeJudgement`, as the single-record routes write), so
 *   they commit together or not at all, each change logged and audited as usual.
 * - A row names a requirement and the columns to record; an empty or absent cell leaves that column as it
 *   is. A row equal to the record is unchanged: nothing is written and nothing logged. Otherwise only the
 *   columns that differ are written, and the change log gets an entry for a status or an applicability
 *   that changes (with the note, or the justification, beside it), as a single-record change would.
 * - The rules of the single routes hold: an exclusion (`applicable` false) carries its justification, as
 *   does bringing an excluded requirement back; a justification goes with `applicable`.
 * - Rows are named as the person sees them: a CSV row by its line in the file (the header is line 1, a
 *   quoted cell may span lines), a JSON row by its position in `rows`, both from 1.
 */
import { parse } from 'csv-parse/sync';
import type { Em } from '../../platform/db/database.js';
import { badRequest, invalidField } from '../../platform/errors.js';
import { type Judgement, type RecordRow, readRecords, writeJudgement } from '../../records/records.store.js';
import { closest } from '../../shared/closest.js';
import { REQUIREMENT_STATUSES, type RequirementStatus } from '../../shared/vocabulary.js';
import type { Framework } from '../cte/framework.types.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
import { type ImportField, type ImportOutcome, MAX_IMPORT_ROWS } from './requirements.schemas.js';

/** The columns a row may carry. */
const COLUMNS = ['requirementId', 'status', 'applicable', 'justification', 'note', 'owner'] as const;
type Column = (typeof COLUMNS)[number];

/** Longest text each column takes (the single routes' limits). */
const MAX_LENGTH: Record<Column, number> = {
  requirementId: 200,
  status: 64,
  applicable: 16,
  justification: 4000,
  note: 4000,
  owner: 200,
};

/** A header cell's name without case, spaces or punctuation: `Requirement ID` and `requirement_id` match. */
const headerKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** What each header name (as `headerKey` reads it) stands for; null: a column read and ignored. */
const HEADERS = new Map<string, Column | null>([
  ...COLUMNS.map((column) => [headerKey(column), column] as const),
  ['id', 'requirementId'],
  ['controlid', 'requirementId'],
  ['title', null],
  ['domain', null],
]);

/** One row as given: the cells are raw text (CSV) or JSON values, checked together by `checkRows`. */
export interface SourceRow {
  row: number;
  requirementId?: string;
  status?: string;
  applicable?: boolean | string;
  justification?: string;
  note?: string;
  owner?: string;
}

export interface RowError {
  row: number;
  column: string | null;
  message: string;
}

export interface ImportRowResult {
  row: number;
  requirementId: string;
  outcome: ImportOutcome;
  fields: ImportField[];
}

export interface ImportResult {
  orgId: string;
  frameworkId: string;
  dryRun: boolean;
  counts: Record<ImportOutcome, number>;
  rows: ImportRowResult[];
}

/** `a, b or c`. */
const oneOf = (values: readonly string[]) =>
  values.length === 1 ? values[0] : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;

/** Refuses the import, listing every bad row. */
function refuse(errors: RowError[]): never {
  const sorted = [...errors].sort((a, b) => a.row - b.row);
  const rows = new Set(sorted.map((error) => error.row)).size;
  throw badRequest(
    `${rows === 1 ? 'One row was' : `${rows} rows were`} refused: nothing was imported. Fix ${
      rows === 1 ? 'it' : 'them'
    } and import the file again.`,
    { reason: 'invalid_rows', rows: sorted },
  );
}

// ---------------------------------------------------------------------------------------------------
// CSV

/** Offsets at which each line of `bytes` starts (a line ends at CRLF, LF or a lone CR). */
function lineStarts(bytes: Buffer): number[] {
  const starts = [0];
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === 0x0a || (byte === 0x0d && bytes[index + 1] !== 0x0a)) starts.push(index + 1);
  }
  return starts;
}

/** The 1-based line holding the byte at `offset` (the first line not starting after it). */
function lineAt(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** The first offset at or after `offset` that is not a line break: where a record after empty lines begins. */
function skipLineBreaks(bytes: Buffer, offset: number): number {
  let at = offset;
  while (at < bytes.length && (bytes[at] === 0x0a || bytes[at] === 0x0d)) at++;
  return at;
}

const CSV_ERRORS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell starts here and is never closed (a " is missing)',
  CSV_INVALID_CLOSING_QUOTE: 'a quote closes a cell but more text follows it before the comma',
  INVALID_OPENING_QUOTE: 'a " inside an unquoted cell: quote the whole cell and double the " inside it',
};

/**
 * The rows of a CSV file (RFC 4180, any of CRLF, LF or CR line ends, a byte order mark allowed), each named
 * by the line it starts on, or the errors of the file.
 */
export function rowsOfCsv(text: string): { rows: SourceRow[]; errors: RowError[] } {
  const bytes = Buffer.from(text, 'utf8');
  const starts = lineStarts(bytes);
  // Each record with the offset just past it: the next one starts there (after any empty lines).
  const records: { cells: string[]; end: number }[] = [];
  const startOf = (index: number) => skipLineBreaks(bytes, index === 0 ? 0 : records[index - 1].end);
  try {
    parse(bytes, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (cells: string[], context) => {
        records.push({ cells, end: context.bytes });
        return null;
      },
    });
  } catch (error) {
    const failure = error as { code?: string; message: string };
    const message = CSV_ERRORS[failure.code ?? ''] ?? `the file is not valid CSV (${failure.message})`;
    return { rows: [], errors: [{ row: lineAt(starts, startOf(records.length)), column: null, message }] };
  }
  // A spreadsheet's export may end with rows of empty cells: they hold nothing to import.
  const filled = records
    .map(({ cells }, index) => ({ cells, line: lineAt(starts, startOf(index)) }))
    .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''));
  if (filled.length === 0) {
    return {
      rows: [],
      errors: [
        {
          row: 1,
          column: null,
          message: 'the file is empty: it needs a header row, then one row per requirement',
        },
      ],
    };
  }
  const [header, ...body] = filled;
  const errors: RowError[] = [];
  const columns: (Column | null)[] = [];
  const seen = new Map<Column, string>();
  for (const cell of header.cells) {
    const name = cell.trim();
    // A column without a name (a trailing comma) is ignored; a value under it is refused below.
    const column = name === '' ? null : HEADERS.get(headerKey(name));
    if (column === undefined) {
      errors.push({
        row: header.line,
        column: name,
        message: `"${name}" is not a column comply imports: use ${COLUMNS.join(', ')} (title and domain are ignored)`,
      });
    } else if (column !== null && seen.has(column)) {
      errors.push({
        row: header.line,
        column: name,
        message: `"${name}" names the same column as "${seen.get(column)}": keep one of them`,
      });
    } else if (column !== null) {
      seen.set(column, name);
    }
    columns.push(column ?? null);
  }
  if (!seen.has('requirementId')) {
    errors.push({
      row: header.line,
      column: null,
      message: `the header row has no requirementId column (the first row must name the columns: ${COLUMNS.join(', ')})`,
    });
  }
  if (errors.length > 0) return { rows: [], errors };
  const rows = body.map(({ cells, line }): SourceRow => {
    const row: SourceRow = { row: line };
    if (cells.length > columns.length) {
      errors.push({
        row: line,
        column: null,
        message: `the row has ${cells.length} cells but the header names ${columns.length} columns (an unquoted comma in a cell?)`,
      });
    }
    cells.forEach((cell, index) => {
      const column = columns[index];
      const value = cell.trim();
      if (column && value !== '') row[column] = value;
      else if (value !== '' && header.cells[index]?.trim() === '') {
        errors.push({
          row: line,
          column: null,
          message: `cell ${index + 1} is under a column with no name in the header: name the column or empty the cell`,
        });
      }
    });
    return row;
  });
  return { rows, errors };
}

// ---------------------------------------------------------------------------------------------------
// Checking

/** `In progress`, `in-progress` and `IN_PROGRESS` all read as in_progress. */
function statusOf(value: string): RequirementStatus | undefined {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return REQUIREMENT_STATUSES.find((status) => status === key);
}

const TRUE = new Set(['true', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'no', 'n', '0']);

function applicableOf(value: boolean | string): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const key = value.trim().toLowerCase();
  return TRUE.has(key) ? true : FALSE.has(key) ? false : undefined;
}

/** What a checked row asks to record (only the columns it gives). */
interface Wanted {
  row: number;
  requirementId: string;
  status?: RequirementStatus;
  applicable?: boolean;
  justification?: string;
  note?: string;
  owner?: string;
}

/** Suggestions cost a distance to every id of the framework: enough of them for any real slip. */
const MAX_SUGGESTIONS = 200;

/**
 * Checks every row against the framework and the org's current records; returns the rows as wanted, or
 * the errors of all of them.
 */
function checkRows(
  framework: Framework,
  rows: SourceRow[],
  records: Map<string, RecordRow>,
  unit: 'line' | 'row',
): { wanted: Wanted[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const ids = new Set(framework.requirements.map((requirement) => requirement.id));
  const firstRow = new Map<string, number>();
  const wanted: Wanted[] = [];
  let suggestions = 0;
  for (const source of rows) {
    const { row } = source;
    const error = (column: Column | null, message: string) => errors.push({ row, column, message });
    const before = errors.length;
    for (const column of COLUMNS) {
      const value = source[column];
      if (typeof value !== 'string') continue;
      // A CSV file decodes from valid UTF-8 (no lone surrogates); NUL is left for this check.
      if (value.includes('\u0000')) error(column, 'contains a character comply cannot store (NUL)');
      else if (value.length > MAX_LENGTH[column])
        error(column, `is ${value.length} characters long; at most ${MAX_LENGTH[column]} fit`);
    }
    const requirementId = source.requirementId?.trim() ?? '';
    if (requirementId === '') {
      error('requirementId', 'is empty: name the requirement the row is about');
    } else if (!ids.has(requirementId)) {
      const near = suggestions++ < MAX_SUGGESTIONS ? closest(requirementId, ids) : undefined;
      error(
        'requirementId',
        `${framework.name} has no requirement "${requirementId}"${near ? `: did you mean ${near}?` : ''}`,
      );
    } else if (firstRow.has(requirementId)) {
      error(
        'requirementId',
        `${requirementId} is also on ${unit} ${firstRow.get(requirementId)}: give each requirement one row`,
      );
    } else {
      firstRow.set(requirementId, row);
    }
    const status = source.status === undefined ? undefined : statusOf(source.status);
    if (source.status !== undefined && status === undefined) {
      error('status', `"${source.status}" is not a status: use ${oneOf(REQUIREMENT_STATUSES)}`);
    }
    const applicable = source.applicable === undefined ? undefined : applicableOf(source.applicable);
    if (source.applicable !== undefined && applicable === undefined) {
      error('applicable', `"${String(source.applicable)}" is not true or false (yes and no will do too)`);
    }
    const justification = source.justification?.trim() || undefined;
    const current = records.get(requirementId);
    if (justification !== undefined && source.applicable === undefined) {
      error('justification', 'goes with applicable: say whether the requirement applies (true or false)');
    } else if (applicable === false && justification === undefined) {
      error(
        'justification',
        `is needed to exclude ${requirementId || 'a requirement'}: say why it does not apply`,
      );
    } else if (applicable === true && justification === undefined && current?.applicable === false) {
      error('justification', `is needed to bring the excluded ${requirementId} back: say why it applies now`);
    }
    if (errors.length > before) continue;
    wanted.push({
      row,
      requirementId,
      ...(status === undefined ? {} : { status }),
      ...(applicable === undefined ? {} : { applicable }),
      ...(justification === undefined ? {} : { justification }),
      ...(source.note?.trim() ? { note: source.note.trim() } : {}),
      ...(source.owner?.trim() ? { owner: source.owner.trim() } : {}),
    });
  }
  return { wanted, errors };
}

/** The columns of a wanted row that differ from the record (every column given, without a record). */
function differences(wanted: Wanted, record: RecordRow | undefined): ImportField[] {
  const fields: ImportField[] = [];
  const differs = <K extends ImportField>(field: K, current: unknown) => {
    if (wanted[field] !== undefined && wanted[field] !== current) fields.push(field);
  };
  differs('status', record?.status);
  differs('applicable', record?.applicable);
  differs('justification', record?.justification);
  differs('note', record?.note);
  differs('owner', record?.owner);
  return fields;
}

// ---------------------------------------------------------------------------------------------------
// Import

export interface ImportOptions {
  dryRun: boolean;
  /** Who decided: a signed-in person is themself; a key's caller names them ('' when it did not). */
  reviewer: string;
  keyId: string | null;
}

export type ImportInput = { csv: string } | { rows: Omit<SourceRow, 'row'>[] };

/**
 * Checks every row, then (unless a dry run) writes what differs from the records in one transaction.
 * `400` listing every bad row when any is; `404` for an unknown framework.
 */
export async function importRequirementRecords(
  em: Em,
  key: { orgId: string; frameworkId: string },
  input: ImportInput,
  options: ImportOptions,
): Promise<ImportResult> {
  const framework = requireFramework((await currentLibrary(em)).library, key.frameworkId);
  const source =
    'csv' in input
      ? rowsOfCsv(input.csv)
      : { rows: input.rows.map((row, index) => ({ ...row, row: index + 1 })), errors: [] };
  if (source.errors.length > 0 && source.rows.length === 0) refuse(source.errors);
  if (source.rows.length === 0) {
    refuse([{ row: 1, column: null, message: 'there are no rows to import: add one row per requirement' }]);
  }
  if (source.rows.length > MAX_IMPORT_ROWS) {
    refuse([
      {
        row: source.rows[MAX_IMPORT_ROWS].row,
        column: null,
        message: `${source.rows.length} rows are more than one import takes (${MAX_IMPORT_ROWS}): split the file`,
      },
    ]);
  }
  if (!options.reviewer) {
    throw invalidField('reviewer', 'is required with an API key: name who decided (reviewer)');
  }
  const records = new Map(
    (await readRecords(em, key.orgId, key.frameworkId)).map((record) => [record.requirementId, record]),
  );
  const { wanted, errors } = checkRows(framework, source.rows, records, 'csv' in input ? 'line' : 'row');
  if (errors.length > 0 || source.errors.length > 0) refuse([...source.errors, ...errors]);

  const results = wanted.map((row): ImportRowResult & { wanted: Wanted } => {
    const record = records.get(row.requirementId);
    const fields = differences(row, record);
    const outcome: ImportOutcome = fields.length === 0 ? 'unchanged' : record ? 'changed' : 'created';
    return { row: row.row, requirementId: row.requirementId, outcome, fields, wanted: row };
  });
  if (!options.dryRun) {
    // The records were read before this transaction: a row judged unchanged stays unwritten even if
    // someone changed its record since, and every change logged takes its previous value under the lock.
    await em.transactional(async (tx) => {
      for (const { requirementId, fields, wanted: row } of results) {
        if (fields.length > 0) await writeRow(tx, { ...key, requirementId }, row, fields, options);
      }
    });
  }
  const counts = { created: 0, changed: 0, unchanged: 0 };
  for (const result of results) counts[result.outcome]++;
  return {
    ...key,
    dryRun: options.dryRun,
    counts,
    rows: results.map(({ wanted: _, ...result }) => result),
  };
}

/**
 * Writes the columns of one row that differ, as the single routes would: the applicability with its
 * justification, then the status with its note, each logged with its reason; owner and a note alone
 * change the record without a change-log entry.
 */
async function writeRow(
  tx: Em,
  key: { orgId: string; frameworkId: string; requirementId: string },
  row: Wanted,
  fields: ImportField[],
  options: ImportOptions,
): Promise<void> {
  const author = { actor: options.reviewer, keyId: options.keyId };
  const changes = new Set(fields);
  if (changes.has('applicable') || changes.has('justification')) {
    await writeJudgement(
      tx,
      key,
      {
        // Written again unchanged, an applicability would log a change that is none.
        applicable: changes.has('applicable') ? row.applicable : undefined,
        justification: row.justification,
        reviewer: options.reviewer,
      },
      { ...author, note: row.justification },
    );
  }
  const rest: Judgement = {
    ...(changes.has('status') ? { status: row.status, reviewer: options.reviewer } : {}),
    ...(changes.has('note') ? { note: row.note } : {}),
    ...(changes.has('owner') ? { owner: row.owner } : {}),
  };
  if (Object.keys(rest).length > 0) {
    await writeJudgement(tx, key, rest, { ...author, note: row.note });
  }
}
