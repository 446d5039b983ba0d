/**
 * The API's paths, one function per route family, relative to /api/v1. Each id is encoded here and only
 * here: requirement ids hold spaces, parentheses and slashes (`Art. 26(6)`, `GOVERN 1.1`).
 * A `suffix` is appended as given (`/status`, `/history`), so it must be a fixed path.
 */

const seg = encodeURIComponent;
const optional = (id: string | undefined) => (id === undefined ? '' : `/${seg(id)}`);

/** `/orgs/{orgId}`, or `/orgs` without an id. */
export const orgPath = (orgId?: string, suffix = '') => `/orgs${optional(orgId)}${suffix}`;

/** The control library (`/controls`), not an org's records. */
export const libraryControlPath = (controlId?: string) => `/controls${optional(controlId)}`;

/** An org's controls: `/orgs/{orgId}/controls[/{controlId}]`. */
export const controlPath = (orgId: string, controlId?: string, suffix = '') =>
  orgPath(orgId, `/controls${optional(controlId)}${suffix}`);

/** An org's view of a framework: `/orgs/{orgId}/frameworks[/{frameworkId}]`. */
export const frameworkPath = (orgId: string, frameworkId?: string, suffix = '') =>
  orgPath(orgId, `/frameworks${optional(frameworkId)}${suffix}`);

export const requirementPath = (orgId: string, frameworkId: string, requirementId?: string, suffix = '') =>
  frameworkPath(orgId, frameworkId, `/requirements${optional(requirementId)}${suffix}`);

/**
 * `/orgs/{orgId}/applicability-profile`: what the org is under the EU AI Act, and the exclusions that follow
 * (`PUT` saves it; `?dryRun=true` previews).
 */
export const applicabilityProfilePath = (orgId: string) => orgPath(orgId, '/applicability-profile');

/** `/orgs/{orgId}/frameworks/{frameworkId}/requirements/import`: many records at once, from CSV or JSON. */
export const requirementImportPath = (orgId: string, frameworkId: string) =>
  frameworkPath(orgId, frameworkId, '/requirements/import');

/** `/orgs/{orgId}/compliance…`: the org's score, history and snapshot routes. */
export const compliancePath = (orgId: string, suffix = '') => orgPath(orgId, `/compliance${suffix}`);

export const snapshotPath = (orgId: string, snapshotId?: string, suffix = '') =>
  compliancePath(orgId, `/snapshots${optional(snapshotId)}${suffix}`);

export const evidencePath = (orgId: string, suffix = '') => orgPath(orgId, `/evidence${suffix}`);

export const attestationPath = (orgId: string, attestationId?: string) =>
  orgPath(orgId, `/attestations${optional(attestationId)}`);

export const epochPath = (orgId: string, epochId: string) =>
  orgPath(orgId, `/attestations/epochs/${seg(epochId)}`);

export const aiSystemPath = (orgId: string, systemId?: string) =>
  orgPath(orgId, `/ai-systems${optional(systemId)}`);

/** An org's AI risks: `/orgs/{orgId}/risks[/{riskId}]` and a `suffix` (`/acceptance`); `riskPath(orgId, 'summary')` is the summary. */
export const riskPath = (orgId: string, riskId?: string, suffix = '') =>
  orgPath(orgId, `/risks${optional(riskId)}${suffix}`);

/** The impact-assessment templates (`/impact-assessment-templates[/{templateId}]`), the same for every org. */
export const impactAssessmentTemplatePath = (templateId?: string) =>
  `/impact-assessment-templates${optional(templateId)}`;

/**
 * An org's impact assessments: `/orgs/{orgId}/impact-assessments[/{assessmentId}]` and a `suffix` (`/submit`,
 * `/approve`, `/revise`); with a system instead, `systemImpactAssessmentPath` names that system's list.
 */
export const impactAssessmentPath = (orgId: string, assessmentId?: string, suffix = '') =>
  orgPath(orgId, `/impact-assessments${optional(assessmentId)}${suffix}`);

/** `/orgs/{orgId}/ai-systems/{systemId}/impact-assessments`: a system's assessments, and where one starts. */
export const systemImpactAssessmentPath = (orgId: string, systemId: string) =>
  `${aiSystemPath(orgId, systemId)}/impact-assessments`;

/**
 * An org's controlled documents: `/orgs/{orgId}/documents[/{documentId}]`; with a version,
 * `/orgs/{orgId}/documents/{documentId}/versions[/{versionId}]` and a `suffix` (`/approve`, `/diff`).
 */
export const documentPath = (orgId: string, documentId?: string) =>
  orgPath(orgId, `/documents${optional(documentId)}`);

export const documentVersionPath = (orgId: string, documentId: string, versionId?: string, suffix = '') =>
  `${documentPath(orgId, documentId)}/versions${optional(versionId)}${suffix}`;

export const apiKeyPath = (orgId: string, keyId?: string) => orgPath(orgId, `/keys${optional(keyId)}`);

export const memberPath = (orgId: string, userId?: string) => orgPath(orgId, `/members${optional(userId)}`);

/** An org's audit trail (`/orgs/{orgId}/audit-log[/verify]`), or the platform's without an org. */
export const auditLogPath = (orgId?: string, suffix = '') =>
  `${orgId === undefined ? '' : orgPath(orgId)}/audit-log${suffix}`;

/** Sign-in routes: `/auth/login`, `/auth/logout`, `/auth/invitations/accept`, `/auth/oidc/start`… */
export const authPath = (suffix: string) => `/auth${suffix}`;

export const sidecarKeyPath = (orgId: string, keyId?: string) =>
  orgPath(orgId, `/sidecar-keys${optional(keyId)}`);

/** `/orgs/{orgId}/soa/checks`: what an auditor would catch in the Statement of Applicability. */
export const soaChecksPath = (orgId: string) => orgPath(orgId, '/soa/checks');

export const auditPath = (orgId: string, auditId?: string, suffix = '') =>
  orgPath(orgId, `/audits${optional(auditId)}${suffix}`);

export const findingPath = (orgId: string, findingId?: string) =>
  orgPath(orgId, `/findings${optional(findingId)}`);

/** A finding under its audit, where it changes: `/orgs/{orgId}/audits/{auditId}/findings/{findingId}[/close]`. */
export const auditFindingPath = (orgId: string, auditId: string, findingId: string, suffix = '') =>
  auditPath(orgId, auditId, `/findings/${seg(findingId)}${suffix}`);

export const reviewPath = (orgId: string, reviewId?: string, suffix = '') =>
  orgPath(orgId, `/management-reviews${optional(reviewId)}${suffix}`);

export const duePath = (orgId: string) => orgPath(orgId, '/due');

/** An org's webhooks: `/orgs/{orgId}/webhooks[/{webhookId}]` and a `suffix` (`/deliveries`). */
export const webhookPath = (orgId: string, webhookId?: string, suffix = '') =>
  orgPath(orgId, `/webhooks${optional(webhookId)}${suffix}`);

/** `/orgs/{orgId}/export/{kind}`: `soa` or `oscal`. */
export const exportPath = (orgId: string, kind: string) => orgPath(orgId, `/export/${seg(kind)}`);

/** The crosswalk engine: `/cte/` and its segments, each encoded (`ctePath('coverage', fw, req)`). */
export const ctePath = (...segments: string[]) => `/cte/${segments.map(seg).join('/')}`;
