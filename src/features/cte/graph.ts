/**
 * The crosswalk graph: requirements are nodes, crosswalk edges join them (in both directions). An
 * organization's direct records of every framework (its ISO/IEC 42001 controls always; any other
 * requirement it assessed) propagate along the edges to the requirements of other frameworks.
 *
 * Propagation rule (the one place it is defined):
 * - Sources. Every direct record propagates: an implemented ISO/IEC 27001 A.8.15 gives credit to ISO/IEC
 *   42001 A.6.2.8 exactly as an implemented A.6.2.8 gives credit to A.8.15. The ISO/IEC 42001 controls are
 *   the base framework: every one has a record (missing ones count as not started and applicable) and its
 *   mapped sets are reported as `joint`. Only direct records propagate; an inferred status never does.
 * - A direct record always wins for its own requirement: its status is the record's. What the crosswalk
 *   infers for it from the other frameworks' records is still computed (`inferredStrength`, the
 *   justifications) so that a reviewer can see where the two disagree. A requirement without a direct
 *   status takes the inferred one (`assessment: inferred`), or none when nothing reaches it.
 * - The rules below speak of "controls": read any requirement holding a direct record.
 * - Hops. A hop from requirement X to requirement Y gives FULL credit when X's scope contains Y's (X equal Y,
 *   X superset Y) and PARTIAL credit otherwise (X subset Y, X intersect Y). An edge `s REL t` is read as
 *   REL going s→t and as its inverse going t→s (subset ↔ superset; equal and intersect are symmetric).
 * - A control contributes its status as a strength: implemented 1, in_progress 0.5, not_started 0; a control
 *   marked not applicable contributes nothing. Each partial hop halves the strength; full hops keep it.
 * - Expired evidence. An implemented control whose evidence has all expired counts as in progress everywhere
 *   (its own row, paths, mapped sets): the claim is no longer backed by anything current. The control keeps
 *   its recorded status, and its row and every justification it gives say `evidenceExpired`.
 * - A path has at most `maxHops` edges (default 3) and never passes through another requirement of the
 *   framework it starts from (an ISO control does not earn credit from another ISO control).
 * - Joint coverage. A crosswalk maps each requirement to the set of base controls that together address it,
 *   one edge per control, so a requirement's direct base neighbours (one hop, any relationship) are read as
 *   one set: its mapped controls. When the requirement has an edge that a source states (`inferred: false`)
 *   to any base control, only such edges form the set; otherwise its inferred edges do. A source's set is
 *   its statement of what addresses the requirement, and an analyst's inferred edge (often about one aspect,
 *   such as storage limitation) is not part of it; without a source, the analyst's edges are the only set
 *   there is, and the result says that it is inferred. Controls the organization excluded leave the set.
 *   The base framework's set also holds its management-system clauses (ISO/IEC 42001's `6.1.2`, `8.2`…, the
 *   framework `iso-42001-clauses`): a requirement such as a risk-management duty is met by clauses and
 *   controls together, and a clause without a record counts as not started, like a control.
 *   The set gives strength 1 (covered) when every control in it is implemented, 0.5 (partial) when every
 *   one is at least in progress or some are implemented, and nothing otherwise; each control that counts
 *   justifies the result with credit `joint`. A set can give more than partial only when its edges claim
 *   that together they contain the requirement (`canCover`). It cannot when:
 *     - it is made only of `intersect` edges: under NIST IR 8477 an intersection is a partial overlap, and
 *       partial overlaps do not add up to the whole, however many there are;
 *     - it is made only of inferred edges: an analyst's inference is not a source's statement;
 *     - it is a single control whose edge says the control is narrower than the requirement (control
 *       subset requirement), as its own source says it leaves part out.
 *   Such a set counts like a partial hop, half of what it would otherwise give: 0.5 (partial) with every
 *   control implemented, 0.25 (still partial) when only some are implemented or all are in progress.
 *   When every mapped control is excluded the set gives nothing and the requirement is marked `excluded`
 *   rather than covered by an empty set. Joint credit does not travel further: longer paths follow the hop
 *   rule only.
 * - A requirement's strength is the best over all its paths and its mapped set. `covered` needs strength 1
 *   (an implemented control reaching it through full-credit hops only, or all its mapped controls
 *   implemented); `partial` needs at least 0.25 (e.g. an implemented control through two intersect hops);
 *   weaker links are too indirect to claim and count as `uncovered`.
 */

import {
  type AssessmentSource,
  type CoverageStatus,
  ISO_42001,
  ISO_42001_CLAUSES,
  type RequirementStatus,
} from '../../shared/vocabulary.js';
import type { LibraryEdge, Relationship, RequirementRef } from './framework.types.js';
import { type FrameworkLibrary, requirementKey } from './library.js';

export type ControlStatus = RequirementStatus;
export interface OrgControlState {
  status: ControlStatus;
  applicable: boolean;
  /** False when the record holds only an exclusion: its status is then left to the crosswalk. */
  statusRecorded?: false;
  /** The control has evidence and all of it has expired. */
  evidenceExpired?: boolean;
}
/** An organization's direct records: framework id → requirement id → state. */
export type DirectRecords = ReadonlyMap<string, ReadonlyMap<string, OrgControlState>>;
/** What a single hop gives. */
export type Credit = 'full' | 'partial';
/** What a control gives a requirement: through its path (`full`, `partial`) or as one of its mapped set. */
export type JustificationCredit = Credit | 'joint';

export const FULL_STRENGTH = 1;
export const MIN_PARTIAL_STRENGTH = 0.25;
/** What a mapped set gives when it is started but not complete. */
export const JOINT_PARTIAL_STRENGTH = 0.5;
const PARTIAL_HOP_FACTOR = 0.5;
const STATUS_STRENGTH: Record<ControlStatus, number> = { implemented: 1, in_progress: 0.5, not_started: 0 };

export interface GraphOptions {
  maxHops?: number;
  /** Drop edges that no source states (`inferred: true`), for analyses that must rest on authoritative edges. */
  authoritativeOnly?: boolean;
}

export interface PathHop {
  from: RequirementRef;
  to: RequirementRef;
  /** The edge's relationship as stored, i.e. read from the edge's source to its target. */
  relationship: Relationship;
  /** `forward` when the hop goes from the edge's source to its target. */
  direction: 'forward' | 'reverse';
  credit: Credit;
  origin: string;
  inferred: boolean;
  /** The edge's id; edges added through the API carry it as they were stored. */
  edgeId: string;
}

export interface Justification {
  /** The framework of the record that gives the credit. */
  frameworkId: string;
  /** The requirement (a control, for ISO/IEC 42001) whose record gives the credit. */
  controlId: string;
  /** The organization's recorded status. */
  controlStatus: ControlStatus;
  /** Present when the control's evidence has all expired: an implemented one then gives what in progress does. */
  evidenceExpired?: true;
  credit: JustificationCredit;
  strength: number;
  path: PathHop[];
}

/** A requirement's mapped base controls read as one set, and what they give (the joint rule above). */
export interface JointCoverage {
  /**
   * The applicable mapped controls, in base-framework order (then its management-system clauses, such as
   * `6.1.2` of `iso-42001-clauses`; `baseFamily` resolves an id to its framework).
   */
  controls: string[];
  /** Those not implemented yet: what remains to reach joint coverage. */
  remaining: string[];
  /** Mapped controls the organization excluded as not applicable, left out of the set. */
  excluded: string[];
  /** True when the set rests on inferred edges (no source maps the requirement to a base control). */
  inferred: boolean;
  /**
   * False when the set can give partial at most: its edges are all `intersect`, or all inferred, or it is one
   * control stated narrower than the requirement.
   */
  canCover: boolean;
  /** What the set gives on its own; `excluded` when every mapped control is excluded. */
  status: CoverageStatus | 'excluded';
}

export interface RequirementCoverage extends RequirementRef {
  /** The effective status: the direct record's when there is one, else what the crosswalk infers. */
  status: CoverageStatus;
  strength: number;
  /** False for requirements the organization excluded. */
  applicable: boolean;
  /** Where `status` comes from. */
  assessment: AssessmentSource;
  /** What the crosswalk gives from the other frameworks' records, whatever the direct record says. */
  inferredStrength: number;
  inferredStatus: CoverageStatus;
  /** The organization's own status, where it recorded one (always on base-framework controls). */
  orgStatus?: ControlStatus;
  /** On base-framework controls whose evidence has all expired. */
  evidenceExpired?: true;
  /** Controls whose status justifies the result, strongest first. */
  justifications: Justification[];
  /** The requirement's mapped base controls, when it has any (never on the base framework itself). */
  joint?: JointCoverage;
}

export interface CoverageResult {
  baseFrameworkId: string;
  /** The graph options the result was computed with; later analyses of the result reuse them. */
  options: GraphOptions;
  /** Every requirement of every framework, in library order. */
  requirements: RequirementCoverage[];
  get(frameworkId: string, requirementId: string): RequirementCoverage | undefined;
  forFramework(frameworkId: string): RequirementCoverage[];
}

/** One step of a reach path, stored compactly as indexes. */
interface Step {
  edge: number;
  forward: boolean;
}

export interface Reach {
  node: number;
  strength: number;
  steps: readonly Step[];
}

interface Neighbour {
  node: number;
  factor: number;
  edge: number;
  forward: boolean;
}

/** A requirement's mapped controls of one framework (or family): each with its one-hop step to it. */
export interface MappedSet {
  members: readonly { origin: number; step: Step }[];
  inferred: boolean;
  canCover: boolean;
}

/** Which relationship the edge has when read from `target` back to `source`. */
const INVERSE: Record<Relationship, Relationship> = {
  equal: 'equal',
  subset: 'superset',
  superset: 'subset',
  intersect: 'intersect',
};

const RELATION_WORDS: Record<Relationship, string> = {
  equal: 'equal to',
  subset: 'subset of',
  superset: 'superset of',
  intersect: 'intersects with',
};

/** A hop in words, read from its start: "A.6.2.8 equal to Art. 12". */
export function describeHop(hop: PathHop): string {
  const relationship = hop.direction === 'forward' ? hop.relationship : INVERSE[hop.relationship];
  return `${hop.from.requirementId} ${RELATION_WORDS[relationship]} ${hop.to.requirementId}`;
}

/** Credit for a hop whose start relates to its end by `relationship`. */
export function hopCredit(relationship: Relationship): Credit {
  return relationship === 'equal' || relationship === 'superset' ? 'full' : 'partial';
}

export function strengthStatus(strength: number): CoverageStatus {
  if (strength >= FULL_STRENGTH) return 'covered';
  return strength >= MIN_PARTIAL_STRENGTH ? 'partial' : 'uncovered';
}

/** True for an uncovered requirement whose mapped base controls are all excluded. */
export function uncoveredByExclusion(row: RequirementCoverage): boolean {
  return row.status === 'uncovered' && row.joint?.status === 'excluded';
}

/** Adjacency and per-node reach, computed once per library and option set. */
export class CrosswalkGraph {
  readonly refs: RequirementRef[] = [];
  readonly edges: readonly LibraryEdge[];
  readonly maxHops: number;
  private readonly indexByKey = new Map<string, number>();
  private readonly adjacency: Neighbour[][] = [];
  private readonly reachCache = new Map<number, Reach[]>();
  private readonly inboundCache = new Map<string, Map<number, { origin: number; reach: Reach }[]>>();
  private readonly mappedCache = new Map<string, Map<number, MappedSet>>();

  constructor(
    readonly library: FrameworkLibrary,
    options: GraphOptions = {},
  ) {
    this.maxHops = options.maxHops ?? 3;
    this.edges = options.authoritativeOnly ? library.edges.filter((edge) => !edge.inferred) : library.edges;
    for (const framework of library.frameworks) {
      for (const requirement of framework.requirements) {
        this.indexByKey.set(requirementKey(framework.id, requirement.id), this.refs.length);
        this.refs.push({ frameworkId: framework.id, requirementId: requirement.id });
        this.adjacency.push([]);
      }
    }
    this.edges.forEach((edge, index) => {
      const source = this.nodeOf(edge.source);
      const target = this.nodeOf(edge.target);
      if (source === undefined || target === undefined || source === target) return;
      const factor = (relationship: Relationship) =>
        hopCredit(relationship) === 'full' ? 1 : PARTIAL_HOP_FACTOR;
      this.adjacency[source].push({
        node: target,
        factor: factor(edge.relationship),
        edge: index,
        forward: true,
      });
      this.adjacency[target].push({
        node: source,
        factor: factor(INVERSE[edge.relationship]),
        edge: index,
        forward: false,
      });
    });
  }

  nodeOf(ref: RequirementRef): number | undefined {
    return this.indexByKey.get(requirementKey(ref.frameworkId, ref.requirementId));
  }

  neighbours(node: number): readonly Neighbour[] {
    return this.adjacency[node];
  }

  /**
   * The best path (highest strength, then fewest hops) from `origin` to every node it reaches within
   * `maxHops`, not entering nodes of the origin's own framework. Bounded Bellman-Ford by layers: an entry is
   * kept only if no shorter path is at least as strong, which keeps the hop bound exact.
   */
  reachFrom(origin: number): readonly Reach[] {
    const cached = this.reachCache.get(origin);
    if (cached) return cached;
    const ownFramework = this.refs[origin].frameworkId;
    const best = new Map<number, Reach>();
    let frontier: Reach[] = [{ node: origin, strength: FULL_STRENGTH, steps: [] }];
    for (let hop = 1; hop <= this.maxHops && frontier.length > 0; hop++) {
      const next = new Map<number, Reach>();
      for (const from of frontier) {
        for (const neighbour of this.adjacency[from.node]) {
          if (this.refs[neighbour.node].frameworkId === ownFramework) continue;
          const strength = from.strength * neighbour.factor;
          if (strength < MIN_PARTIAL_STRENGTH) continue;
          const known = best.get(neighbour.node);
          if (known && known.strength >= strength) continue;
          const reach = {
            node: neighbour.node,
            strength,
            steps: [...from.steps, { edge: neighbour.edge, forward: neighbour.forward }],
          };
          best.set(neighbour.node, reach);
          next.set(neighbour.node, reach);
        }
      }
      frontier = [...next.values()];
    }
    const result = [...best.values()];
    this.reachCache.set(origin, result);
    return result;
  }

  /** Spells out a reach path as hops between requirement references. */
  describePath(origin: number, steps: readonly Step[]): PathHop[] {
    let at = this.refs[origin];
    return steps.map((step) => {
      const edge = this.edges[step.edge];
      const to = step.forward ? edge.target : edge.source;
      const relationshipFromHere = step.forward ? edge.relationship : INVERSE[edge.relationship];
      const hop: PathHop = {
        from: at,
        to: { frameworkId: to.frameworkId, requirementId: to.requirementId },
        relationship: edge.relationship,
        direction: step.forward ? 'forward' : 'reverse',
        credit: hopCredit(relationshipFromHere),
        origin: edge.origin,
        inferred: edge.inferred,
        edgeId: edge.edgeId,
      };
      at = hop.to;
      return hop;
    });
  }

  /** For every node, the nodes of `frameworkId` that reach it, strongest first (computed once). */
  inboundFrom(frameworkId: string): ReadonlyMap<number, readonly { origin: number; reach: Reach }[]> {
    let inbound = this.inboundCache.get(frameworkId);
    if (inbound) return inbound;
    inbound = new Map();
    for (const origin of this.nodesOf(frameworkId)) {
      for (const reach of this.reachFrom(origin)) {
        const list = inbound.get(reach.node) ?? [];
        list.push({ origin, reach });
        inbound.set(reach.node, list);
      }
    }
    for (const list of inbound.values()) {
      list.sort((a, b) => b.reach.strength - a.reach.strength || a.reach.steps.length - b.reach.steps.length);
    }
    this.inboundCache.set(frameworkId, inbound);
    return inbound;
  }

  /**
   * For every requirement outside `frameworkIds` (a framework, or a base family) joined to them by an edge,
   * its mapped controls of those frameworks per the joint rule: the ones a source states, else the inferred
   * ones (computed once).
   */
  mappedSetsFrom(frameworkIds: readonly string[]): ReadonlyMap<number, MappedSet> {
    const cacheKey = frameworkIds.join('\u0000');
    const cached = this.mappedCache.get(cacheKey);
    if (cached) return cached;
    const found = new Map<number, { stated: Map<number, Neighbour>; inferred: Map<number, Neighbour> }>();
    for (const origin of frameworkIds.flatMap((frameworkId) => this.nodesOf(frameworkId))) {
      for (const neighbour of this.adjacency[origin]) {
        if (frameworkIds.includes(this.refs[neighbour.node].frameworkId)) continue;
        let entry = found.get(neighbour.node);
        if (!entry) {
          entry = { stated: new Map(), inferred: new Map() };
          found.set(neighbour.node, entry);
        }
        const byOrigin = this.edges[neighbour.edge].inferred ? entry.inferred : entry.stated;
        const known = byOrigin.get(origin);
        if (!known || neighbour.factor > known.factor) byOrigin.set(origin, neighbour);
      }
    }
    const sets = new Map<number, MappedSet>();
    for (const [node, { stated, inferred }] of found) {
      const chosen = stated.size > 0 ? stated : inferred;
      const members = [...chosen].map(([origin, { edge, forward }]) => ({ origin, step: { edge, forward } }));
      const onlyInferred = stated.size === 0;
      sets.set(node, {
        members,
        inferred: onlyInferred,
        canCover: !onlyInferred && this.claimsWhole(members),
      });
    }
    this.mappedCache.set(cacheKey, sets);
    return sets;
  }

  /**
   * Whether a set's edges claim that together its controls contain the requirement: not when every edge is a
   * partial overlap (`intersect`), nor when the set is one control its source states narrower (`subset`,
   * read from the control: it leaves part of the requirement out).
   */
  private claimsWhole(members: MappedSet['members']): boolean {
    const relationships = members.map((member) => this.relationshipAlong(member.step));
    if (relationships.every((relationship) => relationship === 'intersect')) return false;
    return !(relationships.length === 1 && relationships[0] === 'subset');
  }

  /** The relationship of a step's start to its end. */
  relationshipAlong(step: Step): Relationship {
    const relationship = this.edges[step.edge].relationship;
    return step.forward ? relationship : INVERSE[relationship];
  }

  /** Node indexes of one framework, in framework order. */
  nodesOf(frameworkId: string): number[] {
    const framework = this.library.framework(frameworkId);
    if (!framework) return [];
    return framework.requirements.map(
      (requirement) => this.indexByKey.get(requirementKey(frameworkId, requirement.id))!,
    );
  }
}

/** A base framework's management-system clauses, which join its controls in the mapped sets. */
const MANAGEMENT_CLAUSES: Readonly<Record<string, string>> = { [ISO_42001]: ISO_42001_CLAUSES };

/** The base framework and, where the library holds them, its management-system clauses. */
export function baseFamily(library: FrameworkLibrary, baseFrameworkId: string): string[] {
  const clauses = MANAGEMENT_CLAUSES[baseFrameworkId];
  return clauses && library.framework(clauses) ? [baseFrameworkId, clauses] : [baseFrameworkId];
}

const graphCache = new WeakMap<FrameworkLibrary, Map<string, CrosswalkGraph>>();

/** The graph of a library, built once per library and option set. */
export function crosswalkGraph(library: FrameworkLibrary, options: GraphOptions = {}): CrosswalkGraph {
  const key = `${options.maxHops ?? 3}:${options.authoritativeOnly ? 'authoritative' : 'all'}`;
  let perLibrary = graphCache.get(library);
  if (!perLibrary) {
    perLibrary = new Map();
    graphCache.set(library, perLibrary);
  }
  let graph = perLibrary.get(key);
  if (!graph) {
    graph = new CrosswalkGraph(library, options);
    perLibrary.set(key, graph);
  }
  return graph;
}

/** The status a control counts with: implemented without any current evidence counts as in progress. */
export function effectiveStatus(state: OrgControlState): ControlStatus {
  return state.status === 'implemented' && state.evidenceExpired ? 'in_progress' : state.status;
}

/** A status for a strength from an organization's own base control. */
function orgStrength(state: OrgControlState): number {
  return state.applicable ? STATUS_STRENGTH[effectiveStatus(state)] : 0;
}

/** What a control's justifications carry besides its strength: its recorded status and why it counts less. */
function controlFacts(state: OrgControlState): Pick<Justification, 'controlStatus' | 'evidenceExpired'> {
  return { controlStatus: state.status, ...(state.evidenceExpired ? { evidenceExpired: true } : {}) };
}

const DEFAULT_STATE: OrgControlState = { status: 'not_started', applicable: true };

/** What a mapped set whose applicable controls have these statuses gives (the joint rule). */
export function jointStrength(statuses: readonly ControlStatus[], canCover: boolean): number {
  if (statuses.length === 0) return 0;
  const implemented = statuses.filter((status) => status === 'implemented').length;
  const allStarted = statuses.every((status) => status !== 'not_started');
  const whole =
    implemented === statuses.length
      ? FULL_STRENGTH
      : implemented > 0 || allStarted
        ? JOINT_PARTIAL_STRENGTH
        : 0;
  // A set that cannot cover counts like a partial hop: half of what it would give.
  return canCover ? whole : whole * PARTIAL_HOP_FACTOR;
}

/**
 * Applies a requirement's mapped set of one framework to its inferred coverage: credit if the set gives
 * more, and (for the base framework) the `joint` summary.
 */
function applyMappedSet(
  graph: CrosswalkGraph,
  target: RequirementCoverage,
  set: MappedSet,
  stateOf: (ref: RequirementRef) => OrgControlState,
  reportJoint: boolean,
): void {
  const joint: JointCoverage = {
    controls: [],
    remaining: [],
    excluded: [],
    inferred: set.inferred,
    canCover: set.canCover,
    status: 'excluded',
  };
  const counted: {
    frameworkId: string;
    controlId: string;
    state: OrgControlState;
    status: ControlStatus;
    step: Step;
    origin: number;
  }[] = [];
  for (const { origin, step } of set.members) {
    const { frameworkId, requirementId: controlId } = graph.refs[origin];
    const state = stateOf(graph.refs[origin]);
    if (!state.applicable) {
      joint.excluded.push(controlId);
      continue;
    }
    const status = effectiveStatus(state);
    joint.controls.push(controlId);
    if (status !== 'implemented') joint.remaining.push(controlId);
    counted.push({ frameworkId, controlId, state, status, step, origin });
  }
  if (reportJoint) target.joint = joint;
  if (counted.length === 0) return;
  const strength = jointStrength(
    counted.map((member) => member.status),
    set.canCover,
  );
  joint.status = strengthStatus(strength);
  if (strength === 0) return;
  for (const member of counted) {
    if (member.status === 'not_started') continue;
    // A control keeps its own path when that gives more, or as much on its own (a full hop).
    const existing = target.justifications.findIndex(
      (why) => why.frameworkId === member.frameworkId && why.controlId === member.controlId,
    );
    const own = target.justifications[existing];
    if (own && (own.strength > strength || own.credit === 'full')) continue;
    const justification: Justification = {
      frameworkId: member.frameworkId,
      controlId: member.controlId,
      ...controlFacts(member.state),
      credit: 'joint',
      strength,
      path: graph.describePath(member.origin, [member.step]),
    };
    if (existing >= 0) target.justifications[existing] = justification;
    else target.justifications.push(justification);
  }
  if (strength > target.inferredStrength) target.inferredStrength = strength;
}

/**
 * Propagates an organization's base-framework statuses (`controlId → state`, missing controls count as
 * not started and applicable) to every requirement of every framework in the library.
 */
export function propagateCoverage(
  library: FrameworkLibrary,
  statuses: ReadonlyMap<string, OrgControlState>,
  options: GraphOptions & { baseFrameworkId?: string } = {},
): CoverageResult {
  return propagateRecords(library, new Map([[options.baseFrameworkId ?? ISO_42001, statuses]]), options);
}

/**
 * Propagates an organization's direct records of every framework to every requirement of every framework
 * in the library (the rule at the top of this file). Base-framework controls without a record count as
 * not started and applicable.
 */
export function propagateRecords(
  library: FrameworkLibrary,
  records: DirectRecords,
  options: GraphOptions & { baseFrameworkId?: string } = {},
): CoverageResult {
  const baseFrameworkId = options.baseFrameworkId ?? ISO_42001;
  const graph = crosswalkGraph(library, options);
  const results: RequirementCoverage[] = graph.refs.map((ref) => ({
    ...ref,
    status: 'uncovered',
    strength: 0,
    applicable: true,
    assessment: 'none',
    inferredStrength: 0,
    inferredStatus: 'uncovered',
    justifications: [],
  }));
  const sources = library.frameworks
    .map((framework) => framework.id)
    .filter((frameworkId) => frameworkId === baseFrameworkId || records.has(frameworkId));
  const stateIn = (frameworkId: string) => {
    const own = records.get(frameworkId);
    const fallback = frameworkId === baseFrameworkId ? DEFAULT_STATE : undefined;
    return (requirementId: string) => own?.get(requirementId) ?? fallback;
  };
  for (const frameworkId of sources) {
    const stateOf = stateIn(frameworkId);
    for (const node of graph.nodesOf(frameworkId)) {
      const controlId = graph.refs[node].requirementId;
      const state = stateOf(controlId);
      if (!state) continue;
      const strength = orgStrength(state);
      if (strength === 0) continue;
      for (const reach of graph.reachFrom(node)) {
        const pathStrength = strength * reach.strength;
        if (pathStrength < MIN_PARTIAL_STRENGTH) continue;
        const target = results[reach.node];
        target.justifications.push({
          frameworkId,
          controlId,
          ...controlFacts(state),
          credit: pathStrength >= FULL_STRENGTH ? 'full' : 'partial',
          strength: pathStrength,
          path: graph.describePath(node, reach.steps),
        });
        if (pathStrength > target.inferredStrength) target.inferredStrength = pathStrength;
      }
    }
  }
  // Mapped sets: the base family's as one set (clauses without a record count as not started), then each
  // other framework's that holds records.
  const family = baseFamily(library, baseFrameworkId);
  const groups = [family, ...sources.filter((id) => !family.includes(id)).map((id) => [id])];
  const memberState = (ref: RequirementRef) =>
    records.get(ref.frameworkId)?.get(ref.requirementId) ?? DEFAULT_STATE;
  for (const group of groups) {
    for (const [node, set] of graph.mappedSetsFrom(group)) {
      applyMappedSet(graph, results[node], set, memberState, group === family);
    }
  }
  for (const frameworkId of library.frameworks.map((framework) => framework.id)) {
    const stateOf = stateIn(frameworkId);
    for (const node of graph.nodesOf(frameworkId)) {
      const result = results[node];
      result.inferredStatus = strengthStatus(result.inferredStrength);
      const state = stateOf(result.requirementId);
      if (state && state.statusRecorded !== false) {
        const strength = orgStrength(state);
        result.assessment = 'direct';
        result.orgStatus = state.status;
        if (state.evidenceExpired) result.evidenceExpired = true;
        result.applicable = state.applicable;
        result.strength = strength;
        result.status = strengthStatus(strength);
      } else {
        if (state) result.applicable = state.applicable;
        result.assessment = result.inferredStatus === 'uncovered' ? 'none' : 'inferred';
        result.strength = result.applicable ? result.inferredStrength : 0;
        result.status = strengthStatus(result.strength);
      }
      result.justifications.sort((a, b) => b.strength - a.strength || a.path.length - b.path.length);
    }
  }
  const byKey = new Map(
    results.map((result) => [requirementKey(result.frameworkId, result.requirementId), result]),
  );
  return {
    baseFrameworkId,
    options: { maxHops: options.maxHops, authoritativeOnly: options.authoritativeOnly },
    requirements: results,
    get: (frameworkId, requirementId) => byKey.get(requirementKey(frameworkId, requirementId)),
    forFramework: (frameworkId) => graph.nodesOf(frameworkId).map((node) => results[node]),
  };
}

/**
 * What implementing every control of `frameworkId` would give `node`: the best path, or its mapped set,
 * all implemented (the joint rule with that framework as the base).
 */
export function fullyImplementedStrength(graph: CrosswalkGraph, frameworkId: string, node: number): number {
  const path = graph.inboundFrom(frameworkId).get(node)?.[0]?.reach.strength ?? 0;
  const set = graph.mappedSetsFrom([frameworkId]).get(node);
  if (!set) return path;
  return Math.max(
    path,
    jointStrength(
      set.members.map(() => 'implemented'),
      set.canCover,
    ),
  );
}

export interface ReachingControl {
  controlId: string;
  /** Strength the requirement would get if this control alone were implemented. */
  strength: number;
  /** `joint` for one of the requirement's mapped controls, unless its own path gives more or a full hop. */
  credit: JustificationCredit;
  path: PathHop[];
}

/** Base-framework controls that can reach a requirement, strongest first: what to implement to cover it. */
export function reachingControls(
  library: FrameworkLibrary,
  ref: RequirementRef,
  options: GraphOptions & { baseFrameworkId?: string } = {},
): ReachingControl[] {
  const graph = crosswalkGraph(library, options);
  const target = graph.nodeOf(ref);
  if (target === undefined) return [];
  const baseFrameworkId = options.baseFrameworkId ?? ISO_42001;
  const inbound = graph.inboundFrom(baseFrameworkId).get(target) ?? [];
  const set = graph.mappedSetsFrom(baseFamily(library, baseFrameworkId)).get(target);
  // Alone, a mapped control gives what its set gives with it the only one implemented.
  const alone = !set
    ? 0
    : jointStrength(
        set.members.map((_, index) => (index === 0 ? 'implemented' : 'not_started')),
        set.canCover,
      );
  const controls = inbound.map(({ origin, reach }): ReachingControl => {
    const member = set?.members.find((candidate) => candidate.origin === origin);
    const joint = member !== undefined && alone >= reach.strength && reach.strength < FULL_STRENGTH;
    return {
      controlId: graph.refs[origin].requirementId,
      strength: joint ? alone : reach.strength,
      credit: joint ? 'joint' : reach.strength >= FULL_STRENGTH ? 'full' : 'partial',
      path: graph.describePath(origin, joint ? [member.step] : reach.steps),
    };
  });
  return controls.sort((a, b) => b.strength - a.strength || a.path.length - b.path.length);
}
