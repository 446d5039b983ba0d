/**
 * Plain input of every export renderer: one organization's compliance state, already read from the
 * database (live, or as frozen in a snapshot). Timestamps are ISO 8601 strings with a timezone.
 */

import type { EvidenceType, RequirementStatus } from '../vocabulary.js';

export type ControlStatus = RequirementStatus;
export type { EvidenceType };

export interface ExportEvidence {
  evidenceId: string;
  controlId: string;
  type: EvidenceType;
  title: string;
  description: string | null;
  fileUrl: string | null;
  /** SHA-256 of the stored file, hex (optionally prefixed `sha256:`), when known. */
  contentHash?: string | null;
  createdAt: string;
}

export interface ExportControl {
  /** Official notation, e.g. `A.6.2.4`. */
  controlId: string;
  /** Domain code, e.g. `A.6`. */
  domain: string;
  domainTitle: string;
  title: string;
  description: string;
  status: ControlStatus;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  updatedAt: string;
  /** Total evidence recorded for the control; may exceed `evidence.length` when the list is capped. */
  evidenceCount: number;
  /** Evidence to reference in the export, newest first. */
  evidence: ExportEvidence[];
}

export interface ExportAiSystem {
  systemId: string;
  name: string;
  description: string | null;
  owner: string | null;
  purpose: string | null;
  riskLevel: string;
  lifecycleStage: string;
}

export interface ExportCounts {
  implemented: number;
  inProgress: number;
  notStarted: number;
  notApplicable: number;
}

export interface ExportHistoryPoint {
  periodStart: string;
  score: number | null;
}

export interface ExportSnapshot {
  snapshotId: string;
  label: string;
  createdAt: string;
  contentHash: string;
}

export interface OrgExportData {
  org: { orgId: string; name: string; createdAt: string };
  /** When this export was produced. */
  generatedAt: string;
  /** Time of the last change to the exported data (the snapshot time for a snapshot export). */
  lastModified: string;
  score: number | null;
  counts: ExportCounts;
  /** Score history, oldest first; drawn as a chart in the PDF. */
  history?: ExportHistoryPoint[];
  /** Present when the export reflects a frozen snapshot rather than the live state. */
  snapshot?: ExportSnapshot;
  controls: ExportControl[];
  aiSystems: ExportAiSystem[];
}
