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
 *   The set gives strength 1 (covered) when every control in it is implemented, 0.5 (partial) when every
 *   one is at least in progress or some are implemented, and nothing otherwise; each control that counts
 *   justifies the result with credit `joint`. Two limits: a set of a single control whose edge says the
 *   control is narrower than the requirement (control subset requirement) gives at most partial, as its own
 *   source says it leaves part out; and when every mapped control is excluded the set gives nothing and the
 *   requirement is marked `excluded` rather than covered by an empty set. Joint credit does not travel
 *   further: longer paths follow the hop rule only.
 * - A requirement's strength is the best over all its paths and its mapped set. `covered` needs strength 1
 *   (an implemented control reaching it through full-credit hops only, or all its mapped controls
 *   implemented); `partial` needs at least 0.25 (e.g. an implemented control through two intersect hops);
 *   weaker links are too indirect to claim and count as `uncovered`.
 */
import { ISO_42001, } from '../../shared/vocabulary.js';
import { requirementKey } from './library.js';
export const FULL_STRENGTH = 1;
export const MIN_PARTIAL_STRENGTH = 0.25;
/** What a mapped set gives when it is started but not complete. */
export const JOINT_PARTIAL_STRENGTH = 0.5;
const PARTIAL_HOP_FACTOR = 0.5;
const STATUS_STRENGTH = { implemented: 1, in_progress: 0.5, not_started: 0 };
/** Which relationship the edge has when read from `target` back to `source`. */
const INVERSE = {
    equal: 'equal',
    subset: 'superset',
    superset: 'subset',
    intersect: 'intersect',
};
const RELATION_WORDS = {
    equal: 'equal to',
    subset: 'subset of',
    superset: 'superset of',
    intersect: 'intersects with',
};
/** A hop in words, read from its start: "A.6.2.8 equal to Art. 12". */
export function describeHop(hop) {
    const relationship = hop.direction === 'forward' ? hop.relationship : INVERSE[hop.relationship];
    return `${hop.from.requirementId} ${RELATION_WORDS[relationship]} ${hop.to.requirementId}`;
}
/** Credit for a hop whose start relates to its end by `relationship`. */
export function hopCredit(relationship) {
    return relationship === 'equal' || relationship === 'superset' ? 'full' : 'partial';
}
export function strengthStatus(strength) {
    if (strength >= FULL_STRENGTH)
        return 'covered';
    return strength >= MIN_PARTIAL_STRENGTH ? 'partial' : 'uncovered';
}
/** True for an uncovered requirement whose mapped base controls are all excluded. */
export function uncoveredByExclusion(row) {
    return row.status === 'uncovered' && row.joint?.status === 'excluded';
}
/** Adjacency and per-node reach, computed once per library and option set. */
export class CrosswalkGraph {
    library;
    refs = [];
    edges;
    maxHops;
    indexByKey = new Map();
    adjacency = [];
    reachCache = new Map();
    inboundCache = new Map();
    mappedCache = new Map();
    constructor(library, options = {}) {
        this.library = library;
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
            if (source === undefined || target === undefined || source === target)
                return;
            const factor = (relationship) => hopCredit(relationship) === 'full' ? 1 : PARTIAL_HOP_FACTOR;
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
    nodeOf(ref) {
        return this.indexByKey.get(requirementKey(ref.frameworkId, ref.requirementId));
    }
    neighbours(node) {
        return this.adjacency[node];
    }
    /**
     * The best path (highest strength, then fewest hops) from `origin` to every node it reaches within
     * `maxHops`, not entering nodes of the origin's own framework. Bounded Bellman-Ford by layers: an entry is
     * kept only if no shorter path is at least as strong, which keeps the hop bound exact.
     */
    reachFrom(origin) {
        const cached = this.reachCache.get(origin);
        if (cached)
            return cached;
        const ownFramework = this.refs[origin].frameworkId;
        const best = new Map();
        let frontier = [{ node: origin, strength: FULL_STRENGTH, steps: [] }];
        for (let hop = 1; hop <= this.maxHops && frontier.length > 0; hop++) {
            const next = new Map();
            for (const from of frontier) {
                for (const neighbour of this.adjacency[from.node]) {
                    if (this.refs[neighbour.node].frameworkId === ownFramework)
                        continue;
                    const strength = from.strength * neighbour.factor;
                    if (strength < MIN_PARTIAL_STRENGTH)
                        continue;
                    const known = best.get(neighbour.node);
                    if (known && known.strength >= strength)
                        continue;
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
    describePath(origin, steps) {
        let at = this.refs[origin];
        return steps.map((step) => {
            const edge = this.edges[step.edge];
            const to = step.forward ? edge.target : edge.source;
            const relationshipFromHere = step.forward ? edge.relationship : INVERSE[edge.relationship];
            const hop = {
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
    inboundFrom(frameworkId) {
        let inbound = this.inboundCache.get(frameworkId);
        if (inbound)
            return inbound;
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
     * For every requirement outside `frameworkId` joined to it by an edge, its mapped controls of that
     * framework per the joint rule: the ones a source states, else the inferred ones (computed once).
     */
    mappedSetsFrom(frameworkId) {
        const cached = this.mappedCache.get(frameworkId);
        if (cached)
            return cached;
        const found = new Map();
        for (const origin of this.nodesOf(frameworkId)) {
            for (const neighbour of this.adjacency[origin]) {
                if (this.refs[neighbour.node].frameworkId === frameworkId)
                    continue;
                let entry = found.get(neighbour.node);
                if (!entry) {
                    entry = { stated: new Map(), inferred: new Map() };
                    found.set(neighbour.node, entry);
                }
                const byOrigin = this.edges[neighbour.edge].inferred ? entry.inferred : entry.stated;
                const known = byOrigin.get(origin);
                if (!known || neighbour.factor > known.factor)
                    byOrigin.set(origin, neighbour);
            }
        }
        const sets = new Map();
        for (const [node, { stated, inferred }] of found) {
            const chosen = stated.size > 0 ? stated : inferred;
            const members = [...chosen].map(([origin, { edge, forward }]) => ({ origin, step: { edge, forward } }));
            const [only] = members;
            // `subset` read from the control: its source says the control leaves part of the requirement out.
            const narrower = members.length === 1 && this.relationshipAlong(only.step) === 'subset';
            sets.set(node, { members, inferred: stated.size === 0, canCover: !narrower });
        }
        this.mappedCache.set(frameworkId, sets);
        return sets;
    }
    /** The relationship of a step's start to its end. */
    relationshipAlong(step) {
        const relationship = this.edges[step.edge].relationship;
        return step.forward ? relationship : INVERSE[relationship];
    }
    /** Node indexes of one framework, in framework order. */
    nodesOf(frameworkId) {
        const framework = this.library.framework(frameworkId);
        if (!framework)
            return [];
        return framework.requirements.map((requirement) => this.indexByKey.get(requirementKey(frameworkId, requirement.id)));
    }
}
const graphCache = new WeakMap();
/** The graph of a library, built once per library and option set. */
export function crosswalkGraph(library, options = {}) {
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
export function effectiveStatus(state) {
    return state.status === 'implemented' && state.evidenceExpired ? 'in_progress' : state.status;
}
/** A status for a strength from an organization's own base control. */
function orgStrength(state) {
    return state.applicable ? STATUS_STRENGTH[effectiveStatus(state)] : 0;
}
/** What a control's justifications carry besides its strength: its recorded status and why it counts less. */
function controlFacts(state) {
    return { controlStatus: state.status, ...(state.evidenceExpired ? { evidenceExpired: true } : {}) };
}
const DEFAULT_STATE = { status: 'not_started', applicable: true };
/** What a mapped set whose applicable controls have these statuses gives (the joint rule). */
export function jointStrength(statuses, canCover) {
    if (statuses.length === 0)
        return 0;
    const implemented = statuses.filter((status) => status === 'implemented').length;
    if (implemented === statuses.length)
        return canCover ? FULL_STRENGTH : JOINT_PARTIAL_STRENGTH;
    const allStarted = statuses.every((status) => status !== 'not_started');
    return implemented > 0 || allStarted ? JOINT_PARTIAL_STRENGTH : 0;
}
/**
 * Applies a requirement's mapped set of one framework to its inferred coverage: credit if the set gives
 * more, and (for the base framework) the `joint` summary.
 */
function applyMappedSet(graph, target, set, frameworkId, stateOf, reportJoint) {
    const joint = {
        controls: [],
        remaining: [],
        excluded: [],
        inferred: set.inferred,
        canCover: set.canCover,
        status: 'excluded',
    };
    const counted = [];
    for (const { origin, step } of set.members) {
        const controlId = graph.refs[origin].requirementId;
        const state = stateOf(controlId);
        if (!state.applicable) {
            joint.excluded.push(controlId);
            continue;
        }
        const status = effectiveStatus(state);
        joint.controls.push(controlId);
        if (status !== 'implemented')
            joint.remaining.push(controlId);
        counted.push({ controlId, state, status, step, origin });
    }
    if (reportJoint)
        target.joint = joint;
    if (counted.length === 0)
        return;
    const strength = jointStrength(counted.map((member) => member.status), set.canCover);
    joint.status = strengthStatus(strength);
    if (strength === 0)
        return;
    for (const member of counted) {
        if (member.status === 'not_started')
            continue;
        // A control keeps its own path when that gives more, or as much on its own (a full hop).
        const existing = target.justifications.findIndex((why) => why.frameworkId === frameworkId && why.controlId === member.controlId);
        const own = target.justifications[existing];
        if (own && (own.strength > strength || own.credit === 'full'))
            continue;
        const justification = {
            frameworkId,
            controlId: member.controlId,
            ...controlFacts(member.state),
            credit: 'joint',
            strength,
            path: graph.describePath(member.origin, [member.step]),
        };
        if (existing >= 0)
            target.justifications[existing] = justification;
        else
            target.justifications.push(justification);
    }
    if (strength > target.inferredStrength)
        target.inferredStrength = strength;
}
/**
 * Propagates an organization's base-framework statuses (`controlId → state`, missing controls count as
 * not started and applicable) to every requirement of every framework in the library.
 */
export function propagateCoverage(library, statuses, options = {}) {
    return propagateRecords(library, new Map([[options.baseFrameworkId ?? ISO_42001, statuses]]), options);
}
/**
 * Propagates an organization's direct records of every framework to every requirement of every framework
 * in the library (the rule at the top of this file). Base-framework controls without a record count as
 * not started and applicable.
 */
export function propagateRecords(library, records, options = {}) {
    const baseFrameworkId = options.baseFrameworkId ?? ISO_42001;
    const graph = crosswalkGraph(library, options);
    const results = graph.refs.map((ref) => ({
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
    const stateIn = (frameworkId) => {
        const own = records.get(frameworkId);
        const fallback = frameworkId === baseFrameworkId ? DEFAULT_STATE : undefined;
        return (requirementId) => own?.get(requirementId) ?? fallback;
    };
    for (const frameworkId of sources) {
        const stateOf = stateIn(frameworkId);
        for (const node of graph.nodesOf(frameworkId)) {
            const controlId = graph.refs[node].requirementId;
            const state = stateOf(controlId);
            if (!state)
                continue;
            const strength = orgStrength(state);
            if (strength === 0)
                continue;
            for (const reach of graph.reachFrom(node)) {
                const pathStrength = strength * reach.strength;
                if (pathStrength < MIN_PARTIAL_STRENGTH)
                    continue;
                const target = results[reach.node];
                target.justifications.push({
                    frameworkId,
                    controlId,
                    ...controlFacts(state),
                    credit: pathStrength >= FULL_STRENGTH ? 'full' : 'partial',
                    strength: pathStrength,
                    path: graph.describePath(node, reach.steps),
                });
                if (pathStrength > target.inferredStrength)
                    target.inferredStrength = pathStrength;
            }
        }
    }
    for (const frameworkId of sources) {
        const stateOf = stateIn(frameworkId);
        for (const [node, set] of graph.mappedSetsFrom(frameworkId)) {
            applyMappedSet(graph, results[node], set, frameworkId, (controlId) => stateOf(controlId) ?? DEFAULT_STATE, frameworkId === baseFrameworkId);
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
                if (state.evidenceExpired)
                    result.evidenceExpired = true;
                result.applicable = state.applicable;
                result.strength = strength;
                result.status = strengthStatus(strength);
            }
            else {
                if (state)
                    result.applicable = state.applicable;
                result.assessment = result.inferredStatus === 'uncovered' ? 'none' : 'inferred';
                result.strength = result.applicable ? result.inferredStrength : 0;
                result.status = strengthStatus(result.strength);
            }
            result.justifications.sort((a, b) => b.strength - a.strength || a.path.length - b.path.length);
        }
    }
    const byKey = new Map(results.map((result) => [requirementKey(result.frameworkId, result.requirementId), result]));
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
export function fullyImplementedStrength(graph, frameworkId, node) {
    const path = graph.inboundFrom(frameworkId).get(node)?.[0]?.reach.strength ?? 0;
    const set = graph.mappedSetsFrom(frameworkId).get(node);
    if (!set)
        return path;
    return Math.max(path, set.canCover ? FULL_STRENGTH : JOINT_PARTIAL_STRENGTH);
}
/** Base-framework controls that can reach a requirement, strongest first: what to implement to cover it. */
export function reachingControls(library, ref, options = {}) {
    const graph = crosswalkGraph(library, options);
    const target = graph.nodeOf(ref);
    if (target === undefined)
        return [];
    const baseFrameworkId = options.baseFrameworkId ?? ISO_42001;
    const inbound = graph.inboundFrom(baseFrameworkId).get(target) ?? [];
    const set = graph.mappedSetsFrom(baseFrameworkId).get(target);
    // Alone, a mapped control covers a set of one (unless stated narrower) and starts a larger set: partial.
    const alone = !set ? 0 : set.members.length === 1 && set.canCover ? FULL_STRENGTH : JOINT_PARTIAL_STRENGTH;
    const controls = inbound.map(({ origin, reach }) => {
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
//# sourceMappingURL=graph.js.map