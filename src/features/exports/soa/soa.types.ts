import type { RiskScoreLevel, RiskState } from '../../../shared/vocabulary.js';
import { SOA_FORMATS, type SoaFormat } from '../../../shared/vocabulary.js';
import type {
  ControlStatus,
  EvidenceType,
  ExportCheck,
  ExportCounts,
  ExportHistoryPoint,
  ExportSnapshot,
} from '../export.types.js';

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

export interface SoaEvidenceRef {
  evidenceId: string;
  type: EvidenceType;
  title: string;
  fileUrl: string | null;
}

/** A risk whose treatment lists the control. */
export interface SoaRiskRef {
  riskId: string;
  title: string;
  residualLevel: RiskScoreLevel;
  state: RiskState;
}

/**
 * Who wrote a row's justification: `officer` (recorded with the control's applicability), `risks` (derived
 * from the risks whose treatment lists the control, for an applicable control without one), or null (none).
 */
export type JustificationSource = 'officer' | 'risks' | null;

/** One line of the statement: what every format shows for a control. */
export interface SoaRow {
  controlId: string;
  domain: string;
  domainTitle: string;
  title: string;
  applicable: boolean;
  justification: string | null;
  justificationSource: JustificationSource;
  /** The risks whose treatment lists the control; null when the export does not carry risks (a snapshot). */
  risks: SoaRiskRef[] | null;
  status: ControlStatus;
  evidence: SoaEvidenceRef[];
  /** All evidence recorded for the control; `evidence` may list fewer. */
  evidenceCount: number;
  reviewer: string | null;
  updatedAt: string;
}

/** The statement as every renderer sees it: a header and the controls in Annex A order. */
export interface SoaView {
  framework: string;
  orgId: string;
  orgName: string;
  generatedAt: string;
  lastModified: string;
  score: number | null;
  counts: ExportCounts;
  history: ExportHistoryPoint[];
  snapshot: ExportSnapshot | null;
  /** The checks of the statement, most severe first; null when the export does not carry them (a snapshot). */
  checks: ExportCheck[] | null;
  /** Remarks on what the statement holds, one line each. */
  notes: string[];
  rows: SoaRow[];
}
