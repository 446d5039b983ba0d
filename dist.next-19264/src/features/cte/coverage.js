/**
 * Coverage per framework and between frameworks.
 *
 * `coverage` is a fraction in 0..1 rounded to 4 decimals: (covered + 0.5 × partial) / total, or null when a
 * framework has no requirement to count. On the base framework, controls the organization marked not
 * applicable are left out of `total` (as in the compliance score) and counted in `notApplicable`. Elsewhere
 * a requirement whose mapped base controls are all excluded stays in `total` as uncovered (an exclusion is
 * not coverage) and is also counted in `excluded`, so that the organization can confirm it does not apply.
 */
import { crosswalkGraph, fullyImplementedStrength, strengthStatus, uncoveredByExclusion, } from './graph.js';
export function coverageFraction(covered, partial, total) {
    if (total === 0)
        return null;
    return Math.round(((covered + 0.5 * partial) / total) * 10_000) / 10_000;
}
function tally(frameworkId, statuses, notApplicable = 0, excluded = 0) {
    const counts = { covered: 0, partial: 0, uncovered: 0 };
    for (const status of statuses)
        counts[status] += 1;
    const total = statuses.length;
    return {
        frameworkId,
        total,
        ...counts,
        coverage: coverageFraction(counts.covered, counts.partial, total),
        notApplicable,
        excluded,
    };
}
/** The organization's coverage of every framework in the library. */
export function frameworkCoverage(library, result) {
    return library.frameworks.map((framework) => {
        const rows = result.forFramework(framework.id);
        const applicable = rows.filter((row) => row.applicable);
        return tally(framework.id, applicable.map((row) => row.status), rows.length - applicable.length, applicable.filter(uncoveredByExclusion).length);
    });
}
const pairwiseCache = new WeakMap();
/**
 * For every ordered pair of frameworks (A, B), the coverage of B that fully implementing every requirement
 * of A would give through the crosswalk, under the propagation rule of `graph.ts` with A as the base (so a
 * requirement of B mapped straight to A is covered jointly). It does not depend on any organization, so it
 * is computed once per library and option set.
 */
export function pairwiseCoverage(library, options = {}) {
    const graph = crosswalkGraph(library, options);
    const cached = pairwiseCache.get(graph);
    if (cached)
        return cached;
    const matrix = [];
    for (const from of library.frameworks) {
        for (const to of library.frameworks) {
            if (to.id === from.id)
                continue;
            const statuses = graph
                .nodesOf(to.id)
                .map((node) => strengthStatus(fullyImplementedStrength(graph, from.id, node)));
            matrix.push({ from: from.id, to: to.id, coverage: tally(to.id, statuses).coverage ?? 0 });
        }
    }
    pairwiseCache.set(graph, matrix);
    return matrix;
}
export function coverageReport(library, result) {
    return {
        frameworks: frameworkCoverage(library, result),
        pairwise: pairwiseCoverage(library, result.options),
    };
}
//# sourceMappingURL=coverage.js.map