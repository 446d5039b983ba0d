import { SOA_FORMATS, type SoaFormat } from '../../../shared/vocabulary.js';
import type {
  ControlStatus,
  EvidenceType,
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

/** One line of the statement: what every format shows for a control. */
export interface SoaRow {
  controlId: string;
  domain: string;
  domainTitle: string;
  title: string;
  applicable: boolean;
  justification: string | null;
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
  rows: SoaRow[];
}
