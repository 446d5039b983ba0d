import { stringify } from 'csv-stringify/sync';
import type { SoaView } from './soa.types.js';
import { evidenceReferenceLines, RISKS_NOT_CARRIED, riskReferenceText } from './soa-view.js';

/**
 * One row per control; `risks` lists the risks whose treatment names it (`Title [riskId] residual level,
 * state`, separated by `; `), `justificationSource` says who wrote the justification (`officer`, `risks` or
 * empty), `note` is the note recorded with the status, `evidenceReferences` reads each item as `Title (type,
 * host/path, added 2026-11-01, expires 2027-01-01)` with `EXPIRED <date>: ` before one expired at `asOf`, and
 * `evidenceExpired` is `true` when the control has evidence and all of it has expired then. The checks and
 * the approval block are in the JSON, Markdown and PDF formats. The header facts (org, times, score,
 * snapshot) repeat on every row, so the file stays one rectangular table that any CSV reader loads as is.
 */
export const SOA_CSV_COLUMNS = [
  'controlId',
  'domain',
  'domainTitle',
  'title',
  'applicable',
  'justification',
  'justificationSource',
  'risks',
  'status',
  'note',
  'evidenceReferences',
  'evidenceCount',
  'evidenceExpired',
  'reviewer',
  'lastUpdate',
  'orgId',
  'orgName',
  'asOf',
  'generatedAt',
  'score',
  'snapshotId',
  'snapshotLabel',
  'snapshotContentHash',
] as const;

// Spreadsheets evaluate a cell that starts with one of these (the full-width forms included) as a formula,
// also after leading blanks or line breaks, which they skip.
const FORMULA_START = /^[\s\u00A0\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/** Neutralises spreadsheet formulas: a leading `'` makes the cell plain text. */
export function guardCsvCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** RFC 4180: CRLF line ends, fields with commas, quotes or line breaks quoted, quotes doubled. */
export function renderSoaCsv(view: SoaView): string {
  const records = view.rows.map((row) =>
    [
      row.controlId,
      row.domain,
      row.domainTitle,
      row.title,
      String(row.applicable),
      row.justification ?? '',
      row.justificationSource ?? '',
      row.risks === null ? RISKS_NOT_CARRIED : row.risks.map(riskReferenceText).join('; '),
      row.status,
      row.note ?? '',
      evidenceReferenceLines(row).join('; '),
      String(row.evidenceCount),
      String(row.evidenceExpired),
      row.reviewer ?? '',
      row.updatedAt,
      view.orgId,
      view.orgName,
      view.asOf,
      view.generatedAt,
      view.score === null ? '' : view.score.toFixed(1),
      view.snapshot?.snapshotId ?? '',
      view.snapshot?.label ?? '',
      view.snapshot?.contentHash ?? '',
    ].map(guardCsvCell),
  );
  return stringify(records, { header: true, columns: [...SOA_CSV_COLUMNS], record_delimiter: 'windows' });
}
