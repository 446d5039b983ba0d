/**
 * The framework library: the built-in frameworks, crosswalk edges and curated conflicts from `fixtures/`,
 * indexed for lookup. A library is immutable; `extendLibrary` returns a new one, so analyses cached per
 * library object (graph adjacency, pairwise coverage, embeddings) stay valid.
 */
import { readFileSync } from 'node:fs';
import { v5 as uuidv5 } from 'uuid';
import type {
  Conflict,
  CrosswalkEdge,
  Framework,
  LibraryEdge,
  Requirement,
  RequirementRef,
} from './framework.types.js';

/** ISO/IEC 42001 and 27001 clauses 4–10 are frameworks of their own so that the Annex A frameworks keep their counts. */
export const BUILTIN_FRAMEWORK_IDS = [
  'iso-42001',
  'nist-ai-rmf',
  'eu-ai-act',
  'iso-27001',
  'gdpr',
  'iso-42001-clauses',
  'iso-27001-clauses',
] as const;

export class UnknownFrameworkError extends Error {
  constructor(readonly frameworkId: string) {
    super(`Framework not found: ${frameworkId}`);
    this.name = 'UnknownFrameworkError';
  }
}

export interface FrameworkLibrary {
  /** In load order: built-in frameworks first, then imported ones. */
  readonly frameworks: readonly Framework[];
  /** Edges whose two ends exist in the library. */
  readonly edges: readonly LibraryEdge[];
  /** Edges naming a requirement the library does not hold (e.g. ISO management-system clauses). */
  readonly unresolvedEdges: readonly LibraryEdge[];
  readonly curatedConflicts: readonly Conflict[];
  framework(frameworkId: string): Framework | undefined;
  requirement(frameworkId: string, requirementId: string): Requirement | undefined;
  /** An edge (resolved or not) by its id. */
  edge(edgeId: string): LibraryEdge | undefined;
  /** The resolved edges joining two requirements, in either direction. */
  edgesBetween(a: RequirementRef, b: RequirementRef): readonly LibraryEdge[];
}

export interface LibraryContents {
  frameworks: readonly Framework[];
  edges?: readonly (CrosswalkEdge | LibraryEdge)[];
  conflicts?: readonly Conflict[];
}

const EDGE_ID_NAMESPACE = 'b3c1d0a4-6f2e-5d8a-9c47-3e1f0b2a6d58';

/** Names an edge by its ends and relationship. */
export function edgeName(edge: CrosswalkEdge): string {
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
export function shippedEdgeId(edge: CrosswalkEdge): string {
  return uuidv5(`map:${edgeName(edge)}`, EDGE_ID_NAMESPACE);
}

/** The same key for `a`–`b` and `b`–`a`: at most one edge joins two requirements. */
export function pairKey(a: RequirementRef, b: RequirementRef): string {
  const [first, second] = [refKey(a), refKey(b)].sort();
  return `${first}\u001e${second}`;
}

/** A compact, collision-free key for a requirement reference. */
export function requirementKey(frameworkId: string, requirementId: string): string {
  return `${frameworkId}\u001f${requirementId}`;
}

export function refKey(ref: RequirementRef): string {
  return requirementKey(ref.frameworkId, ref.requirementId);
}

/** "EU Artificial Intelligence Act (Regulation (EU) 2024/1689)" → "EU Artificial Intelligence Act". */
export function shortFrameworkName(name: string): string {
  return name.replace(/\s*\(.*\)\s*$/, '') || name;
}

export function createLibrary(contents: LibraryContents): FrameworkLibrary {
  const byId = new Map<string, Framework>();
  const requirements = new Map<string, Requirement>();
  for (const framework of contents.frameworks) {
    if (byId.has(framework.id)) throw new Error(`Framework ${framework.id} is defined twice`);
    byId.set(framework.id, framework);
    for (const requirement of framework.requirements) {
      const key = requirementKey(framework.id, requirement.id);
      if (requirements.has(key))
        throw new Error(`Requirement ${framework.id} ${requirement.id} is defined twice`);
      requirements.set(key, requirement);
    }
  }
  const edges: LibraryEdge[] = [];
  const unresolvedEdges: LibraryEdge[] = [];
  const seenEdges = new Set<string>();
  const edgesById = new Map<string, LibraryEdge>();
  const edgesByPair = new Map<string, LibraryEdge[]>();
  for (const input of contents.edges ?? []) {
    const identity = `${refKey(input.source)}\u001e${refKey(input.target)}\u001e${input.relationship}`;
    if (seenEdges.has(identity)) continue;
    seenEdges.add(identity);
    const edge: LibraryEdge = 'edgeId' in input ? input : { ...input, edgeId: shippedEdgeId(input) };
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
    framework: (frameworkId: string) => byId.get(frameworkId),
    requirement: (frameworkId: string, requirementId: string) =>
      requirements.get(requirementKey(frameworkId, requirementId)),
    edge: (edgeId: string) => edgesById.get(edgeId),
    edgesBetween: (a: RequirementRef, b: RequirementRef) => edgesByPair.get(pairKey(a, b)) ?? [],
  });
}

/**
 * A new library with extra frameworks (imported catalogs) and edges. A framework whose id is already present
 * replaces the old one, which makes re-importing a catalog idempotent.
 */
export function extendLibrary(
  base: FrameworkLibrary,
  extra: {
    frameworks?: readonly Framework[];
    edges?: readonly (CrosswalkEdge | LibraryEdge)[];
    conflicts?: readonly Conflict[];
  },
): FrameworkLibrary {
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

function readJson(url: URL): unknown {
  try {
    return JSON.parse(readFileSync(url, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read fixture ${url.pathname}: ${(error as Error).message}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asFramework(value: unknown, file: string): Framework {
  if (!isRecord(value) || typeof value.id !== 'string' || !Array.isArray(value.requirements)) {
    throw new Error(`${file} is not a framework (needs id and requirements)`);
  }
  for (const requirement of value.requirements) {
    if (
      !isRecord(requirement) ||
      typeof requirement.id !== 'string' ||
      typeof requirement.title !== 'string'
    ) {
      throw new Error(`${file}: every requirement needs an id and a title`);
    }
  }
  return value as unknown as Framework;
}

function listOf<T>(value: unknown, key: string, file: string): T[] {
  if (!isRecord(value) || !Array.isArray(value[key]))
    throw new Error(`${file} must be an object with a ${key} array`);
  return value[key] as T[];
}

/** Reads the built-in library from a fixtures directory (no caching; see `loadBuiltinLibrary`). */
export function readLibrary(fixturesDir: URL = DEFAULT_FIXTURES_DIR): FrameworkLibrary {
  const frameworks = BUILTIN_FRAMEWORK_IDS.map((id) =>
    asFramework(readJson(new URL(`frameworks/${id}.json`, fixturesDir)), `frameworks/${id}.json`),
  );
  const edges = listOf<CrosswalkEdge>(
    readJson(new URL('crosswalk.json', fixturesDir)),
    'edges',
    'crosswalk.json',
  );
  const conflicts = listOf<Conflict>(
    readJson(new URL('conflicts.json', fixturesDir)),
    'conflicts',
    'conflicts.json',
  ).map((conflict) => ({ ...conflict, source: 'curated' as const }));
  return createLibrary({ frameworks, edges, conflicts });
}

let builtin: FrameworkLibrary | undefined;

/** The built-in library, read from `fixtures/` once per process. */
export function loadBuiltinLibrary(): FrameworkLibrary {
  builtin ??= readLibrary();
  return builtin;
}
