/**
 * How good the crosswalk suggestions are, measured against labelled pairs (used by the quality test and the
 * bench). Two kinds of labels:
 * - hand-labelled pairs for an imported catalog (`test/cte/suggestion-labels.json`: SP 800-53 → ISO/IEC
 *   27001), split once into a development half and a test half;
 * - the shipped crosswalk itself: the edges of one pair of frameworks are taken out of the library and the
 *   suggestions must find them again (leave-pair-out), split the same way by source requirement.
 * For each labelled source requirement, its suggestions (nearest first) are compared with its targets.
 */
import { createHash } from 'node:crypto';
import { RequirementNeighbourhood } from './crosswalk-suggestions.js';
import { createLibrary } from './library.js';
const THRESHOLDS = [0.6, 0.5, 0.4, 0.3];
/** The split a source requirement falls in: first byte of the SHA-256 of its id, odd → test. */
export function splitOf(sourceId) {
    return createHash('sha256').update(sourceId).digest()[0] % 2 ? 'test' : 'dev';
}
export function evaluateSuggestions(library, documents, vectors, pair, labels, options = {}) {
    const neighbourhood = new RequirementNeighbourhood(library, documents, vectors, options);
    const suggestions = neighbourhood.suggest(pair.from, pair.to, {
        limit: Number.MAX_SAFE_INTEGER,
        minScore: 0,
    });
    const bySource = new Map();
    for (const suggestion of suggestions) {
        bySource.set(suggestion.sourceId, [...(bySource.get(suggestion.sourceId) ?? []), suggestion.targetId]);
    }
    // Suggestions come best first overall; per source, order by score too (the same order).
    const relevant = new Map(labels.map((label) => [label.sourceId, new Set(label.targets)]));
    let hit1 = 0;
    let hit3 = 0;
    let recall = 0;
    for (const label of labels) {
        const top = (bySource.get(label.sourceId) ?? []).slice(0, 3);
        const wanted = relevant.get(label.sourceId);
        const found = top.filter((target) => wanted.has(target)).length;
        if (top[0] && wanted.has(top[0]))
            hit1 += 1;
        if (found > 0)
            hit3 += 1;
        recall += found / Math.min(3, wanted.size);
    }
    const labelled = suggestions
        .filter((suggestion) => relevant.has(suggestion.sourceId))
        .slice(0, labels.length);
    const precise = labelled.filter((suggestion) => relevant.get(suggestion.sourceId)?.has(suggestion.targetId));
    const share = (count) => labels.length === 0 ? 0 : Math.round((count / labels.length) * 1000) / 1000;
    const byThreshold = THRESHOLDS.map((minScore) => {
        const above = suggestions.filter((s) => relevant.has(s.sourceId) && s.score >= minScore);
        const right = above.filter((s) => relevant.get(s.sourceId)?.has(s.targetId)).length;
        return {
            minScore,
            suggestions: above.length,
            precision: above.length === 0 ? 0 : Math.round((right / above.length) * 1000) / 1000,
        };
    });
    return {
        byThreshold,
        sources: labels.length,
        hitAt1: share(hit1),
        hitAt3: share(hit3),
        recallAt3: share(recall),
        precisionAtN: share(precise.length),
    };
}
/** The library without any edge between two frameworks, and those edges as labels (leave-pair-out). */
export function withoutPair(library, pair) {
    const joins = (a, b) => (a === pair.from && b === pair.to) || (a === pair.to && b === pair.from);
    const kept = library.edges.filter((edge) => !joins(edge.source.frameworkId, edge.target.frameworkId));
    const targets = new Map();
    for (const edge of library.edges) {
        if (!joins(edge.source.frameworkId, edge.target.frameworkId))
            continue;
        const [from, to] = edge.source.frameworkId === pair.from ? [edge.source, edge.target] : [edge.target, edge.source];
        targets.set(from.requirementId, (targets.get(from.requirementId) ?? new Set()).add(to.requirementId));
    }
    return {
        library: createLibrary({
            frameworks: library.frameworks,
            edges: [...kept, ...library.unresolvedEdges],
            conflicts: library.curatedConflicts,
        }),
        labels: [...targets].map(([sourceId, set]) => ({
            sourceId,
            targets: [...set],
            split: splitOf(sourceId),
        })),
    };
}
//# sourceMappingURL=suggestion-evaluation.js.map