/**
 * The framework library: the built-in frameworks, crosswalk edges and curated conflicts from `fixtures/`,
 * indexed for lookup. A library is immutable; `extendLibrary` returns a new one, so analyses cached per
 * library object (graph adjacency, pairwise coverage, embeddings) stay valid.
 */
import { readFileSync } from 'node:fs';
import { v5 as uuidv5 } from 'uuid';
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
export class UnknownFrameworkError extends Error {
    frameworkId;
    constructor(frameworkId) {
        super(`Framework not found: ${frameworkId}`);
        this.frameworkId = frameworkId;
        this.name = 'UnknownFrameworkError';
    }
}
const EDGE_ID_NAMESPACE = 'b3c1d0a4-6f2e-5d8a-9c47-3e1f0b2a6d58';
/** Names an edge by its ends and relationship. */
export function edgeName(edge) {
    return [
        edge.source.frameworkId,
        edge.source.requirementId,
        edge.relationship,
        edge.target.frameworkId,
        edge.target.requirementId,
    ].join('\u001f');
}
/**
 * The id of a shipped edge: a v5 UUID of its name, stable across releases as long as the edge is, and the
 * UUID its map has in the OSCAL mapping export. Edges added through the API keep the id they were stored with.
 */
export function shippedEdgeId(edge) {
    return uuidv5(`map:${edgeName(edge)}`, EDGE_ID_NAMESPACE);
}
/** The same key for `a`–`b` and `b`–`a`: at most one edge joins two requirements. */
export function pairKey(a, b) {
    const [first, second] = [refKey(a), refKey(b)].sort();
    return `${first}\u001e${second}`;
}
/** A compact, collision-free key for a requirement reference. */
export function requirementKey(frameworkId, requirementId) {
    return `${frameworkId}\u001f${requirementId}`;
}
export function refKey(ref) {
    return requirementKey(ref.frameworkId, ref.requirementId);
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
    const edgesById = new Map();
    const edgesByPair = new Map();
    for (const input of contents.edges ?? []) {
        const identity = `${refKey(input.source)}\u001e${refKey(input.target)}\u001e${input.relationship}`;
        if (seenEdges.has(identity))
            continue;
        seenEdges.add(identity);
        const edge = 'edgeId' in input ? input : { ...input, edgeId: shippedEdgeId(input) };
        edgesById.set(edge.edgeId, edge);
        const resolvable = requirements.has(refKey(edge.source)) && requirements.has(refKey(edge.target));
        if (!resolvable) {
            unresolvedEdges.push(edge);
            continue;
        }
        edges.push(edge);
        const pair = pairKey(edge.source, edge.target);
        edgesByPair.set(pair, [...(edgesByPair.get(pair) ?? []), edge]);
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
        edge: (edgeId) => edgesById.get(edgeId),
        edgesBetween: (a, b) => edgesByPair.get(pairKey(a, b)) ?? [],
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
export const DEFAULT_FIXTURES_DIR = new URL('../../../fixtures/', import.meta.url);
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