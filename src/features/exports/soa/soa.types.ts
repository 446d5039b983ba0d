import type { Static } from 'typebox';
import { SOA_FORMATS, type SoaFormat } from '../../../shared/vocabulary.js';
import type { SoaApprovalSchema, SoaRowSchema, SoaStatementSchema } from '../export.schemas.js';
import type { ExportCheck, ExportHistoryPoint } from '../export.types.js';

export { SOA_FORMATS, type SoaFormat };

export function isSoaFormat(value: unknown): value is SoaFormat {
  return typeof value === 'string' && (SOA_FORMATS as readonly string[]).includes(value);
}

/** A rendered Statement of Applicability, ready to send with its headers. */
export interface SoaDocument {
  format: SoaFormat;
  contentType: string;
  fileName: string;
  /** `attachment; filename="…"`, safe as a header value. */
  contentDisposition: string;
  body: string | Buffer;
}

export class UnknownSoaFormatError extends Error {
  constructor(readonly format: unknown) {
    super(
      `Unknown Statement of Applicability format ${JSON.stringify(format)}; use one of ${SOA_FORMATS.join(', ')}`,
    );
    this.name = 'UnknownSoaFormatError';
  }
}

/** An evidence item of a row, as the JSON statement carries it. */
export type SoaEvidenceRef = Static<typeof SoaRowSchema>['evidence'][number];

/** A risk whose treatment lists the control. */
export type SoaRiskRef = NonNullable<Static<typeof SoaRowSchema>['risks']>[number];

/**
 * Who wrote a row's justification: `officer` (recorded with the control's applicability), `risks` (derived
 * from the risks whose treatment lists the control, for an applicable control without one), or null (none).
 */
export type JustificationSource = Static<typeof SoaRowSchema>['justificationSource'];

/** One line of the statement: what every format shows for a control. */
export type SoaRow = Static<typeof SoaRowSchema>;

/** Who prepared, reviewed and approved the statement, as far as comply knows. */
export type SoaApproval = Static<typeof SoaApprovalSchema>;
export type SoaSignatory = SoaApproval['preparedBy'];

/** The statement as every renderer sees it: the JSON statement's members, the score history, and the rows. */
export interface SoaView extends Omit<Static<typeof SoaStatementSchema>, 'controls' | 'checks'> {
  history: ExportHistoryPoint[];
  /** The checks of the statement, most severe first; null when the export does not carry them (a snapshot). */
  checks: ExportCheck[] | null;
  /** The controls in Annex A order. */
  rows: SoaRow[];
}
