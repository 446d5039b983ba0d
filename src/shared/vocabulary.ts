/**
 * The project's shared vocabularies, declared once: schemas, services, the CTE graph, exports and the CLI
 * all import them from here.
 */

/** How far an organization has got with a requirement (ISO/IEC 42001 controls included). */
export const REQUIREMENT_STATUSES = ['not_started', 'in_progress', 'implemented'] as const;
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

/** Where a requirement's status comes from: the org's own record, the crosswalk, or neither. */
export const ASSESSMENT_SOURCES = ['direct', 'inferred', 'none'] as const;
export type AssessmentSource = (typeof ASSESSMENT_SOURCES)[number];

/** What the crosswalk gives a requirement: all of it, part of it, or nothing. */
export const COVERAGE_STATUSES = ['covered', 'partial', 'uncovered'] as const;
export type CoverageStatus = (typeof COVERAGE_STATUSES)[number];

export const EVIDENCE_TYPES = ['attestation', 'document', 'link'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export const GAP_PRIORITIES = ['critical', 'important', 'minor'] as const;
export type GapPriority = (typeof GAP_PRIORITIES)[number];

/**
 * ISO/IEC 42001 Annex A: the controls of `/orgs/{orgId}/controls`, the framework whose every requirement keeps
 * a record, and the base from which the crosswalk propagates coverage.
 */
export const ISO_42001 = 'iso-42001';
/** ISO/IEC 42001's management-system clauses 4–10, a framework of their own beside Annex A. */
export const ISO_42001_CLAUSES = 'iso-42001-clauses';

/** What an API key may do; `admin` includes every other scope. */
export const SCOPES = ['read', 'write', 'attest', 'export', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a person may do in an org. `approve` (risk acceptance, assessments, documents, closing findings) and
 * `manage` (the org's members and keys) are permissions of roles only, as is `audit` (reading the audit trail):
 * no key scope grants them, a platform key's `admin` includes them.
 */
export const MEMBER_ROLES = ['viewer', 'editor', 'approver', 'owner', 'auditor'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const MEMBER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];
export const PERMISSIONS = [...SCOPES, 'approve', 'manage', 'audit'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The permissions of each role; an auditor's are further bounded by its expiry and frameworks. */
export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  viewer: ['read'],
  editor: ['read', 'write'],
  approver: ['read', 'write', 'approve'],
  owner: ['read', 'write', 'approve', 'export', 'manage', 'audit'],
  auditor: ['read', 'export', 'audit'],
};

/** Who made a change: a signed-in person, an API key, or comply itself (jobs, migrations). */
export const ACTOR_TYPES = ['user', 'key', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** The EU AI Act framework's id. */
export const EU_AI_ACT = 'eu-ai-act';

/** The roles an organization may hold under the EU AI Act (Art. 3), as its applicability profile names them. */
export const EU_AI_ACT_ROLES = [
  'provider',
  'deployer',
  'importer',
  'distributor',
  'authorisedRepresentative',
] as const;
export type EuAiActRole = (typeof EU_AI_ACT_ROLES)[number];

/** The reviewer named on the exclusions an applicability profile writes, which mark them as the profile's. */
export const PROFILE_REVIEWER = 'applicability profile';

/** The EU AI Act's risk tiers and the lifecycle stages an AI system moves through. */
export const RISK_LEVELS = ['minimal', 'limited', 'high', 'unacceptable'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** An AI risk's level in the register, from its score (likelihood × impact) through the org's criteria. */
export const RISK_SCORE_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskScoreLevel = (typeof RISK_SCORE_LEVELS)[number];
export const TREATMENT_OPTIONS = ['mitigate', 'avoid', 'transfer', 'accept'] as const;
export type TreatmentOption = (typeof TREATMENT_OPTIONS)[number];
/** A risk's state: derived from its treatment, the records it lists and its acceptance; never written. */
export const RISK_STATES = ['open', 'treating', 'treated', 'accepted', 'needs_acceptance'] as const;
export type RiskState = (typeof RISK_STATES)[number];
/** The kinds of dated obligation the agenda of what is due gathers. */
export const DUE_KINDS = [
  'evidence_expiry',
  'risk_treatment',
  'risk_review',
  'acceptance_expiry',
  'assessment_review',
  'document_review',
  'finding_due',
  'decision_due',
] as const;
export type DueKind = (typeof DUE_KINDS)[number];

/** What an internal audit may find (ISO/IEC 42001 10.2): an open major nonconformity caps its requirements. */
export const FINDING_KINDS = [
  'major_nonconformity',
  'minor_nonconformity',
  'observation',
  'opportunity',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];
export const ACCEPTANCE_STATES = ['valid', 'stale', 'expired'] as const;
export type AcceptanceState = (typeof ACCEPTANCE_STATES)[number];
export const LIFECYCLE_STAGES = ['design', 'development', 'validation', 'deployed', 'retired'] as const;

/** The periods a score history is measured in. */
export const INTERVALS = ['daily', 'weekly', 'monthly'] as const;
export type Interval = (typeof INTERVALS)[number];

/** The formats the Statement of Applicability is rendered in. */
/** What the Statement of Applicability's consistency checks find, and how much each matters. */
export const SOA_CHECK_KINDS = [
  'excluded_control_treats_risk',
  'risk_without_treatment',
  'needs_acceptance',
  'stale_acceptance',
  'expired_acceptance',
  'treatment_overdue',
  'system_without_impact_assessment',
  'assessment_due',
] as const;
export type SoaCheckKind = (typeof SOA_CHECK_KINDS)[number];

export const SOA_CHECK_SEVERITIES = ['high', 'medium', 'low'] as const;
export type SoaCheckSeverity = (typeof SOA_CHECK_SEVERITIES)[number];

export const OSCAL_FORMATS = ['json', 'zip'] as const;
export type OscalFormat = (typeof OSCAL_FORMATS)[number];

export const SOA_FORMATS = ['json', 'csv', 'markdown', 'pdf'] as const;
export type SoaFormat = (typeof SOA_FORMATS)[number];

/** What a webhook may subscribe to: changes of the records, and what the scheduled scan finds due or pending. */
export const WEBHOOK_EVENT_TYPES = [
  'requirement.status_changed',
  'evidence.created',
  'risk.created',
  'risk.needs_acceptance',
  'assessment.approved',
  'document.published',
  'finding.opened',
  'item.due_soon',
  'item.overdue',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
