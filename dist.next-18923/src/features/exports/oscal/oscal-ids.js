import { OSCAL_UUID_NAMESPACE } from '../../../platform/oscal/constants.js';
import { ISO_42001 } from '../../../shared/vocabulary.js';
import { EXPORT_FRAMEWORK } from '../framework.js';
import { uuidV5Generator } from './uuid-v5.js';
const uuidV5 = uuidV5Generator(OSCAL_UUID_NAMESPACE);
// The name is a JSON array so that no choice of ids can make two different subjects collide.
function stableUuid(...parts) {
    return uuidV5(JSON.stringify(parts));
}
/** `stableUuid(...parts, last)` for many values of `last`, without re-encoding the common parts. */
function stableUuidFamily(...parts) {
    const prefix = `${JSON.stringify(parts).slice(0, -1)},`;
    return (last) => uuidV5(`${prefix}${JSON.stringify(last)}]`);
}
/** A framework's catalog: the same for every org, new with each version of the framework. */
export function catalogUuidOf(framework) {
    return stableUuid('catalog', framework.id, framework.version);
}
/** The same subject gets the same UUID in every export (OSCAL asks for per-subject UUIDs). */
export const catalogUuid = catalogUuidOf(EXPORT_FRAMEWORK);
/**
 * The UUIDs of one org's package for one framework. ISO/IEC 42001 keeps the names it has always had
 * (`["org", orgId, …]`); every other framework adds its id (`["org", orgId, "framework", id, …]`), so
 * no subject of one framework's package shares a UUID with another's.
 */
export function oscalIds(orgId, framework = EXPORT_FRAMEWORK) {
    const scope = framework.id === ISO_42001 ? ['org', orgId] : ['org', orgId, 'framework', framework.id];
    const id = (...parts) => stableUuid(...scope, ...parts);
    return {
        catalog: catalogUuidOf(framework),
        profile: id('profile'),
        profileCatalogResource: id('profile', 'catalog-resource'),
        ssp: id('ssp'),
        assessmentPlan: id('assessment-plan'),
        assessmentResults: id('assessment-results'),
        orgParty: id('party', 'organization'),
        person: (name) => id('party', 'person', name),
        thisSystem: id('component', 'this-system'),
        aiSystem: (systemId) => id('component', 'ai-system', systemId),
        informationType: id('information-type', 'aims-records'),
        tool: id('assessment-asset', 'tool'),
        assessmentPlatform: id('assessment-asset', 'platform'),
        implementedRequirement: (controlId) => id('implemented-requirement', controlId),
        byComponent: (controlId) => id('implemented-requirement', controlId, 'this-system'),
        evidenceResource: stableUuidFamily(...scope, 'evidence'),
        observation: stableUuidFamily(...scope, 'observation'),
        finding: (controlId) => id('finding', controlId),
        /** One result per export: a new UUID for every generation time. */
        result: (generatedAt) => id('result', generatedAt),
    };
}
/**
 * An OSCAL token (`^[\p{L}_][\p{L}\p{N}._-]*$`) for an id in a framework's own notation, lower case and
 * close to NIST's style: `A.6.2.4` → `a.6.2.4`, `AC-2(1)` → `ac-2.1`, `Art. 26(6)` → `art.26.6`,
 * `GOVERN 1.1` → `govern-1.1`, `4.1` → `_4.1`. Different ids may give the same token (`AC-2(1)` and
 * `AC-2.1`): `OscalTokens` makes them unique within a package.
 */
export function oscalControlId(controlId) {
    const token = controlId
        .trim()
        .toLowerCase()
        .replace(/\(([^()]*)\)/g, '.$1')
        .replace(/[^\p{L}\p{N}._-]+/gu, '-')
        .replace(/[.-]*\.[.-]*/g, '.')
        .replace(/^[.-]+|[.-]+$/g, '');
    if (token === '')
        return '_';
    return /^[\p{L}_]/u.test(token) ? token : `_${token}`;
}
const STATEMENT_SUFFIX = '_smt';
/**
 * The tokens of one package's controls, statements and groups, unique among each other. Controls are
 * named first, in package order, then groups: an id whose token is taken gets `_2`, `_3`, … So the same
 * framework always gets the same tokens, and ids that are tokens already (ISO/IEC 42001) stay as they are.
 */
export class OscalTokens {
    used = new Set();
    controls = new Map();
    groups = new Map();
    constructor(controlIds, groupIds) {
        for (const id of controlIds) {
            if (this.controls.has(id))
                continue;
            const token = this.unique(oscalControlId(id), (candidate) => [candidate, candidate + STATEMENT_SUFFIX]);
            this.controls.set(id, token);
        }
        for (const id of groupIds) {
            if (this.groups.has(id))
                continue;
            this.groups.set(id, this.unique(oscalControlId(id), (candidate) => [candidate]));
        }
    }
    unique(base, claims) {
        for (let n = 1;; n++) {
            const candidate = n === 1 ? base : `${base}_${n}`;
            const names = claims(candidate);
            if (names.some((name) => this.used.has(name)))
                continue;
            for (const name of names)
                this.used.add(name);
            return candidate;
        }
    }
    control(controlId) {
        return this.controls.get(controlId) ?? oscalControlId(controlId);
    }
    statement(controlId) {
        return `${this.control(controlId)}${STATEMENT_SUFFIX}`;
    }
    group(domain) {
        return this.groups.get(domain) ?? oscalControlId(domain);
    }
}
//# sourceMappingURL=oscal-ids.js.map