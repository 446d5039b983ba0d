/**
 * The project's shared vocabularies, declared once: schemas, services, the CTE graph, exports and the CLI
 * all import them from here.
 */
/** How far an organization has got with a requirement (ISO/IEC 42001 controls included). */
export const REQUIREMENT_STATUSES = ['not_started', 'in_progress', 'implemented'];
/** Where a requirement's status comes from: the org's own record, the crosswalk, or neither. */
export const ASSESSMENT_SOURCES = ['direct', 'inferred', 'none'];
export const EVIDENCE_TYPES = ['attestation', 'document', 'link'];
export const GAP_PRIORITIES = ['critical', 'important', 'minor'];
/** The framework whose requirements are the ISO/IEC 42001 Annex A controls of `/orgs/{orgId}/controls`. */
export const ISO_42001 = 'iso-42001';
//# sourceMappingURL=vocabulary.js.map