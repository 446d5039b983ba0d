/**
 * The project's shared vocabularies, declared once: schemas, services, the CTE graph, exports and the CLI
 * all import them from here.
 */
/** How far an organization has got with a requirement (ISO/IEC 42001 controls included). */
export const REQUIREMENT_STATUSES = ['not_started', 'in_progress', 'implemented'];
/** Where a requirement's status comes from: the org's own record, the crosswalk, or neither. */
export const ASSESSMENT_SOURCES = ['direct', 'inferred', 'none'];
/** What the crosswalk gives a requirement: all of it, part of it, or nothing. */
export const COVERAGE_STATUSES = ['covered', 'partial', 'uncovered'];
export const EVIDENCE_TYPES = ['attestation', 'document', 'link'];
export const GAP_PRIORITIES = ['critical', 'important', 'minor'];
/**
 * ISO/IEC 42001 Annex A: the controls of `/orgs/{orgId}/controls`, the framework whose every requirement keeps
 * a record, and the base from which the crosswalk propagates coverage.
 */
export const ISO_42001 = 'iso-42001';
/** What an API key may do; `admin` includes every other scope. */
export const SCOPES = ['read', 'write', 'attest', 'export', 'admin'];
/**
 * What a person may do in an org. `approve` (risk acceptance, assessments, documents, closing findings) and
 * `manage` (the org's members and keys) are permissions of roles only, as is `audit` (reading the audit trail):
 * no key scope grants them, a platform key's `admin` includes them.
 */
export const MEMBER_ROLES = ['viewer', 'editor', 'approver', 'owner', 'auditor'];
export const MEMBER_STATUSES = ['invited', 'active', 'disabled'];
export const PERMISSIONS = [...SCOPES, 'approve', 'manage', 'audit'];
/** The permissions of each role; an auditor's are further bounded by its expiry and frameworks. */
export const ROLE_PERMISSIONS = {
    viewer: ['read'],
    editor: ['read', 'write'],
    approver: ['read', 'write', 'approve'],
    owner: ['read', 'write', 'approve', 'export', 'manage', 'audit'],
    auditor: ['read', 'export', 'audit'],
};
/** Who made a change: a signed-in person, an API key, or comply itself (jobs, migrations). */
export const ACTOR_TYPES = ['user', 'key', 'system'];
/** The EU AI Act's risk tiers and the lifecycle stages an AI system moves through. */
export const RISK_LEVELS = ['minimal', 'limited', 'high', 'unacceptable'];
export const LIFECYCLE_STAGES = ['design', 'development', 'validation', 'deployed', 'retired'];
/** The periods a score history is measured in. */
export const INTERVALS = ['daily', 'weekly', 'monthly'];
/** The formats the Statement of Applicability is rendered in. */
export const SOA_FORMATS = ['json', 'csv', 'markdown', 'pdf'];
//# sourceMappingURL=vocabulary.js.map