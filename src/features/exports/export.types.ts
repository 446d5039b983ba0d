/**
 * Plain input of every export renderer: one organization's compliance state, already read from the
 * database (live, or as frozen in a snapshot). Timestamps are ISO 8601 strings with a timezone.
 */

import type {
  AcceptanceState,
  ActorType,
  AssessmentSource,
  EvidenceType,
  RequirementStatus,
  RiskScoreLevel,
  RiskState,
  TreatmentOption,
} from '../../shared/vocabulary.js';
import type { SoaCheckKind, SoaCheckSeverity } from './soa/soa-checks.js';

export type ControlStatus = RequirementStatus;
export type { AssessmentSource, EvidenceType };

/** The framework an export describes, as the library defines it (see `framework.ts`). */
export interface ExportFramework {
  /** Library id: `iso-42001`, `eu-ai-act`, an imported catalog's slug. */
  id: string;
  /** Full name, e.g. `ISO/IEC 42001:2023`. */
  name: string;
  version: string;
  /** The part of the framework that is exported (`Annex A`), when its name does not say so. */
  scope: string | null;
  /** What the framework's items are called in prose: `control` or `requirement`. */
  noun: 'control' | 'requirement';
  /** Imported from an OSCAL catalog rather than built in. */
  imported: boolean;
}

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
  /** From when the evidence is valid, when recorded. */
  effectiveDate: string | null;
  /** When the evidence stops being valid; null when it does not expire. */
  expiresAt: string | null;
}

export interface ExportControl {
  /** Official notation, e.g. `A.6.2.4`, `Art. 26(6)`, `GOVERN 1.1`, `AC-2(1)`. */
  controlId: string;
  /** Domain code, e.g. `A.6`; empty for a requirement of a framework without domains. */
  domain: string;
  domainTitle: string;
  title: string;
  description: string;
  status: ControlStatus;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  /** The note recorded with the status, if any. */
  note: string | null;
  /** Last change of the org's record; the org's creation when it has none (`recorded: false`). */
  updatedAt: string;
  /** false when the org has no record of the requirement (nothing judged, no evidence). Default true. */
  recorded?: boolean;
  /**
   * Where `status` comes from: `direct` (the org recorded it), `inferred` (the crosswalk gives it) or
   * `none`. Absent means direct, as for every ISO/IEC 42001 control.
   */
  assessment?: AssessmentSource;
  /** The direct records of other requirements the crosswalk infers the status from. */
  inferredFrom?: { frameworkId: string; requirementId: string }[];
  /** Total evidence recorded for the control; may exceed `evidence.length` when the list is capped. */
  evidenceCount: number;
  /**
   * It has evidence and all of it has expired as of the export's as-of time (the records store's rule, as the
   * CI gate and coverage read it). Absent means false.
   */
  evidenceExpired?: boolean;
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

/** A risk of the org's register as assessed when the export was produced (see the risks feature). */
export interface ExportRisk {
  riskId: string;
  title: string;
  description: string | null;
  category: string | null;
  owner: string | null;
  /** The AI systems the risk arises from. */
  systemIds: string[];
  likelihood: number;
  impact: number;
  residualLikelihood: number;
  residualImpact: number;
  inherent: { score: number; level: RiskScoreLevel };
  residual: { score: number; level: RiskScoreLevel };
  treatment: {
    option: TreatmentOption;
    /** The requirements (any framework) whose implementation treats the risk. */
    requirements: { frameworkId: string; requirementId: string }[];
    plan: string | null;
    dueDate: string | null;
  } | null;
  /** Listed requirements whose effective status is implemented, of all listed. */
  treatmentProgress: { implemented: number; total: number };
  /** Past the treatment's due date with its requirements not all implemented. */
  treatmentOverdue: boolean;
  acceptance: { state: AcceptanceState; acceptedBy: string; acceptedAt: string; expiresAt: string } | null;
  state: RiskState;
  updatedAt: string;
}

/** An AI system impact assessment as the checks see it (see `soa/soa-checks.ts`). */
export interface ExportImpactAssessment {
  assessmentId: string;
  systemId: string;
  /** draft | submitted | approved | superseded */
  state: string;
  /** Set on an approved assessment whose system changed since, or whose review is due. */
  reassessment: { due: boolean; reasons: string[] } | null;
}

/** Something in the org's risk treatment an auditor would ask about (see `soa/soa-checks.ts`). */
export interface ExportCheck {
  kind: SoaCheckKind;
  severity: SoaCheckSeverity;
  message: string;
  riskId?: string;
  controlId?: string;
  systemId?: string;
  assessmentId?: string;
}

/** Who asked for an export: a signed-in person (with their role in the org) or an API key. */
export interface ExportRequester {
  type: Extract<ActorType, 'user' | 'key'>;
  name: string;
  /** A person's email. */
  email: string | null;
  /** A person's role in the org (`platform administrator` for a platform admin); null for a key. */
  role: string | null;
}

export interface OrgExportData {
  org: { orgId: string; name: string; createdAt: string };
  /** Who asked for the export, when known. */
  exportedBy?: ExportRequester;
  /** The framework exported; ISO/IEC 42001 Annex A when absent. The SoA is always ISO/IEC 42001. */
  framework?: ExportFramework;
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
  /**
   * With `snapshot`: the snapshot froze the note recorded with each status. Snapshots taken before notes were
   * frozen did not, and a statement built from one says so.
   */
  snapshotHasNotes?: boolean;
  controls: ExportControl[];
  aiSystems: ExportAiSystem[];
  /**
   * The org's risk register, oldest first. Absent when the export does not carry it: a snapshot froze the
   * records, not the risks.
   */
  risks?: ExportRisk[];
  /** The Statement of Applicability's checks (live ISO/IEC 42001 exports); absent like `risks`. */
  checks?: ExportCheck[];
}
