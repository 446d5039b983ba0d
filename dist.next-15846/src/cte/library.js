/**
 * The framework library: the built-in frameworks, crosswalk edges and curated conflicts from `fixtures/`,
 * indexed for lookup. A library is immutable; `extendLibrary` returns a new one, so analyses cached per
 * library object (graph adjacency, pairwise coverage, embeddings) stay valid.
 */
import { readFileSync } from 'node:fs';
/** ISO/IEC 42001 and 27001 clauses 4–10 are frameworks of their own so that the Annex A frameworks keep their counts. */
export const BUILTIN_FRAMEWORK_IDS = [
    'iso-42001',
    'nist-ai-rmf',
    'eu-ai-act',
    'iso-27001',
    'gdpr',
    'iso-42001-clauses',
    'iso-27001-clauses',
];
/** The framework whose control statuses an organization maintains and from which coverage propagates. */
export const BASE_FRAMEWORK_ID = 'iso-42001';
export class UnknownFrameworkError extends Error {
    frameworkId;
    constructor(frameworkId) {
        super(`Framework not found: ${frameworkId}`);
        this.frameworkId = frameworkId;
        this.name = 'UnknownFrameworkError';
    }
}
/** A compact, collision-free key for a requirement reference. */
export function requirementKey(frameworkId, requirementId) {
    return `${frameworkId}\u001f${requirementId}`;
}
export function refKey(ref) {
    return requirementKey(ref.frameworkId, ref.requirementId);
}
export function parseRequirementKey(key) {
    const separator = key.indexOf('\u001f');
    return { frameworkId: key.slice(0, separator), requirementId: key.slice(separator + 1) };
}
/** "EU Artificial Intelligence Act (Regulation (EU) 2024/1689)" → "EU Artificial Intelligence Act". */
export function shortFrameworkName(name) {
    return name.replace(/\s*\(.*\)\s*$/, '') || name;
}
export function createLibrary(contents) {
    const byId = new Map();
    const requirements = new Map();
    for (const framework of contents.frameworks) {
        if (byId.has(framework.id))
            throw new Error(`Framework ${framework.id} is defined twice`);
        byId.set(framework.id, framework);
        for (const requirement of framework.requirements) {
            const key = requirementKey(framework.id, requirement.id);
            if (requirements.has(key))
                throw new Error(`Requirement ${framework.id} ${requirement.id} is defined twice`);
            requirements.set(key, requirement);
        }
    }
    const edges = [];
    const unresolvedEdges = [];
    const seenEdges = new Set();
    for (const edge of contents.edges ?? []) {
        const identity = `${refKey(edge.source)}\u001e${refKey(edge.target)}\u001e${edge.relationship}`;
        if (seenEdges.has(identity))
            continue;
        seenEdges.add(identity);
        const resolvable = requirements.has(refKey(edge.source)) && requirements.has(refKey(edge.target));
        (resolvable ? edges : unresolvedEdges).push(edge);
    }
    const frameworks = [...contents.frameworks];
    const conflicts = [...(contents.conflicts ?? [])];
    return Object.freeze({
        frameworks,
        edges,
        unresolvedEdges,
        curatedConflicts: conflicts,
        framework: (frameworkId) => byId.get(frameworkId),
        requirement: (frameworkId, requirementId) => requirements.get(requirementKey(frameworkId, requirementId)),
    });
}
/**
 * A new library with extra frameworks (imported catalogs) and edges. A framework whose id is already present
 * replaces the old one, which makes re-importing a catalog idempotent.
 */
export function extendLibrary(base, extra) {
    const replaced = new Set((extra.frameworks ?? []).map((framework) => framework.id));
    return createLibrary({
        frameworks: [
            ...base.frameworks.filter((framework) => !replaced.has(framework.id)),
            ...(extra.frameworks ?? []),
        ],
        edges: [...base.edges, ...base.unresolvedEdges, ...(extra.edges ?? [])],
        conflicts: [...base.curatedConflicts, ...(extra.conflicts ?? [])],
    });
}
export const DEFAULT_FIXTURES_DIR = new URL('../../fixtures/', import.meta.url);
function readJson(url) {
    try {
        return JSON.parse(readFileSync(url, 'utf8'));
    }
    catch (error) {
        throw new Error(`Cannot read fixture ${url.pathname}: ${error.message}`);
    }
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function asFramework(value, file) {
    if (!isRecord(value) || typeof value.id !== 'string' || !Array.isArray(value.requirements)) {
        throw new Error(`${file} is not a framework (needs id and requirements)`);
    }
    for (const requirement of value.requirements) {
        if (!isRecord(requirement) ||
            typeof requirement.id !== 'string' ||
            typeof requirement.title !== 'string') {
            throw new Error(`${file}: every requirement needs an id and a title`);
        }
    }
    return value;
}
function listOf(value, key, file) {
    if (!isRecord(value) || !Array.isArray(value[key]))
        throw new Error(`${file} must be an object with a ${key} array`);
    return value[key];
}
/** Reads the built-in library from a fixtures directory (no caching; see `loadBuiltinLibrary`). */
export function readLibrary(fixturesDir = DEFAULT_FIXTURES_DIR) {
    const frameworks = BUILTIN_FRAMEWORK_IDS.map((id) => asFramework(readJson(new URL(`frameworks/${id}.json`, fixturesDir)), `frameworks/${id}.json`));
    const edges = listOf(readJson(new URL('crosswalk.json', fixturesDir)), 'edges', 'crosswalk.json');
    const conflicts = listOf(readJson(new URL('conflicts.json', fixturesDir)), 'conflicts', 'conflicts.json').map((conflict) => ({ ...conflict, source: 'curated' }));
    return createLibrary({ frameworks, edges, conflicts });
}
let builtin;
/** The built-in library, read from `fixtures/` once per process. */
export function loadBuiltinLibrary() {
    builtin ??= readLibrary();
    return builtin;
}
//# sourceMappingURL=library.js.map