import { OSCAL_UUID_NAMESPACE } from '../../oscal/constants.js';
import { EXPORT_FRAMEWORK } from '../framework.js';
import { uuidV5Generator } from './uuid-v5.js';

const uuidV5 = uuidV5Generator(OSCAL_UUID_NAMESPACE);

// The name is a JSON array so that no choice of ids can make two different subjects collide.
function stableUuid(...parts: string[]): string {
  return uuidV5(JSON.stringify(parts));
}

/** `stableUuid(...parts, last)` for many values of `last`, without re-encoding the common parts. */
function stableUuidFamily(...parts: string[]): (last: string) => string {
  const prefix = `${JSON.stringify(parts).slice(0, -1)},`;
  return (last) => uuidV5(`${prefix}${JSON.stringify(last)}]`);
}

/** The same subject gets the same UUID in every export (OSCAL asks for per-subject UUIDs). */
export const catalogUuid = stableUuid('catalog', EXPORT_FRAMEWORK.id, EXPORT_FRAMEWORK.version);

export function oscalIds(orgId: string) {
  const id = (...parts: string[]) => stableUuid('org', orgId, ...parts);
  return {
    profile: id('profile'),
    profileCatalogResource: id('profile', 'catalog-resource'),
    ssp: id('ssp'),
    assessmentPlan: id('assessment-plan'),
    assessmentResults: id('assessment-results'),
    orgParty: id('party', 'organization'),
    person: (name: string) => id('party', 'person', name),
    thisSystem: id('component', 'this-system'),
    aiSystem: (systemId: string) => id('component', 'ai-system', systemId),
    informationType: id('information-type', 'aims-records'),
    tool: id('assessment-asset', 'tool'),
    assessmentPlatform: id('assessment-asset', 'platform'),
    implementedRequirement: (controlId: string) => id('implemented-requirement', controlId),
    byComponent: (controlId: string) => id('implemented-requirement', controlId, 'this-system'),
    evidenceResource: stableUuidFamily('org', orgId, 'evidence'),
    observation: stableUuidFamily('org', orgId, 'observation'),
    finding: (controlId: string) => id('finding', controlId),
    /** One result per export: a new UUID for every generation time. */
    result: (generatedAt: string) => id('result', generatedAt),
  };
}

export type OscalIds = ReturnType<typeof oscalIds>;

/** OSCAL control ids are lower-case tokens: `A.6.2.4` becomes `a.6.2.4`. */
export function oscalControlId(controlId: string): string {
  const token = controlId
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}._-]/gu, '-');
  return /^[\p{L}_]/u.test(token) ? token : `_${token}`;
}

export function oscalStatementId(controlId: string): string {
  return `${oscalControlId(controlId)}_smt`;
}
