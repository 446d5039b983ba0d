/**
 * The score rule and the effective-status rule, once for every framework and every view: the ISO/IEC 42001
 * routes, the framework routes, history, snapshots and exports all count through these functions.
 *
 * Effective status: the direct record's status when there is one (`assessment: direct`), else what the
 * crosswalk infers — covered → implemented, partial → in_progress — else not started.
 * Score: 100 × (implemented + 0.5 × in_progress) / applicable, one decimal; null when nothing applies.
 */
import { ASSESSMENT_SOURCES, } from '../shared/vocabulary.js';
export const NO_COUNTS = {
    implemented: 0,
    inProgress: 0,
    notStarted: 0,
    notApplicable: 0,
};
/** The status inference gives a requirement, by what the crosswalk gives it. */
export const INFERRED_STATUS = {
    covered: 'implemented',
    partial: 'in_progress',
    uncovered: 'not_started',
};
/** The status a requirement counts with in scores: the record's, else the inferred one. */
export function effectiveStatus(row) {
    return row.assessment === 'direct' ? (row.orgStatus ?? 'not_started') : INFERRED_STATUS[row.status];
}
export function scoreOf(counts) {
    const applicable = counts.implemented + counts.inProgress + counts.notStarted;
    if (applicable === 0)
        return null;
    return Math.round((1000 * (counts.implemented + 0.5 * counts.inProgress)) / applicable) / 10;
}
export function countStates(states) {
    const counts = { ...NO_COUNTS };
    for (const state of states) {
        if (state.applicable === false)
            counts.notApplicable += 1;
        else if (state.status === 'implemented')
            counts.implemented += 1;
        else if (state.status === 'in_progress')
            counts.inProgress += 1;
        else
            counts.notStarted += 1;
    }
    return counts;
}
/** Score, counts and how much rests on inference, over the analysed requirements of one framework. */
export function scoreAssessed(rows) {
    const assessed = Object.fromEntries(ASSESSMENT_SOURCES.map((source) => [source, 0]));
    for (const row of rows)
        if (row.applicable)
            assessed[row.assessment] += 1;
    const counts = countStates(rows.map((row) => ({ status: effectiveStatus(row), applicable: row.applicable })));
    const direct = countStates(rows.map((row) => ({
        status: row.assessment === 'direct' ? effectiveStatus(row) : 'not_started',
        applicable: row.applicable,
    })));
    return { score: scoreOf(counts), counts, assessed, directScore: scoreOf(direct) };
}
/**
 * Scores per domain, in the order domains first appear among `states` (library order when the states come
 * in it). Titles come from `domains`; a domain the framework does not describe is titled by its id.
 */
export function scoreByDomain(domains, states) {
    const titles = new Map((domains ?? []).map((domain) => [domain.id, domain.title]));
    const byDomain = new Map();
    for (const state of states) {
        if (!state.domain)
            continue;
        const list = byDomain.get(state.domain) ?? [];
        list.push(state);
        byDomain.set(state.domain, list);
    }
    return [...byDomain].map(([domain, domainStates]) => {
        const counts = countStates(domainStates);
        return {
            domain,
            domainTitle: titles.get(domain) ?? domain,
            score: scoreOf(counts),
            controlCount: domainStates.length,
            counts,
        };
    });
}
//# sourceMappingURL=score.js.map