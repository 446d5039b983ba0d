/**
 * The API's paths, one function per route family, relative to /api/v1. Each id is encoded here and only
 * here: requirement ids hold spaces, parentheses and slashes (`Art. 26(6)`, `GOVERN 1.1`).
 * A `suffix` is appended as given (`/status`, `/history`), so it must be a fixed path.
 */
const seg = encodeURIComponent;
const optional = (id) => (id === undefined ? '' : `/${seg(id)}`);
/** `/orgs/{orgId}`, or `/orgs` without an id. */
export const orgPath = (orgId, suffix = '') => `/orgs${optional(orgId)}${suffix}`;
/** The control library (`/controls`), not an org's records. */
export const libraryControlPath = (controlId) => `/controls${optional(controlId)}`;
/** An org's controls: `/orgs/{orgId}/controls[/{controlId}]`. */
export const controlPath = (orgId, controlId, suffix = '') => orgPath(orgId, `/controls${optional(controlId)}${suffix}`);
/** An org's view of a framework: `/orgs/{orgId}/frameworks[/{frameworkId}]`. */
export const frameworkPath = (orgId, frameworkId, suffix = '') => orgPath(orgId, `/frameworks${optional(frameworkId)}${suffix}`);
export const requirementPath = (orgId, frameworkId, requirementId, suffix = '') => frameworkPath(orgId, frameworkId, `/requirements${optional(requirementId)}${suffix}`);
/** `/orgs/{orgId}/compliance…`: the org's score, history and snapshot routes. */
export const compliancePath = (orgId, suffix = '') => orgPath(orgId, `/compliance${suffix}`);
export const snapshotPath = (orgId, snapshotId, suffix = '') => compliancePath(orgId, `/snapshots${optional(snapshotId)}${suffix}`);
export const evidencePath = (orgId, suffix = '') => orgPath(orgId, `/evidence${suffix}`);
export const attestationPath = (orgId, attestationId) => orgPath(orgId, `/attestations${optional(attestationId)}`);
export const epochPath = (orgId, epochId) => orgPath(orgId, `/attestations/epochs/${seg(epochId)}`);
export const aiSystemPath = (orgId, systemId) => orgPath(orgId, `/ai-systems${optional(systemId)}`);
export const apiKeyPath = (orgId, keyId) => orgPath(orgId, `/keys${optional(keyId)}`);
export const memberPath = (orgId, userId) => orgPath(orgId, `/members${optional(userId)}`);
/** An org's audit trail (`/orgs/{orgId}/audit-log[/verify]`), or the platform's without an org. */
export const auditLogPath = (orgId, suffix = '') => `${orgId === undefined ? '' : orgPath(orgId)}/audit-log${suffix}`;
/** Sign-in routes: `/auth/login`, `/auth/logout`, `/auth/invitations/accept`, `/auth/oidc/start`… */
export const authPath = (suffix) => `/auth${suffix}`;
export const sidecarKeyPath = (orgId, keyId) => orgPath(orgId, `/sidecar-keys${optional(keyId)}`);
/** `/orgs/{orgId}/export/{kind}`: `soa` or `oscal`. */
export const exportPath = (orgId, kind) => orgPath(orgId, `/export/${seg(kind)}`);
/** The crosswalk engine: `/cte/` and its segments, each encoded (`ctePath('coverage', fw, req)`). */
export const ctePath = (...segments) => `/cte/${segments.map(seg).join('/')}`;
//# sourceMappingURL=paths.js.map