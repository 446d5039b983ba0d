import { badRequest, resourceNotFound } from '../../platform/errors.js';
import { DAY_MS, parseInstant, periodsBetween, startOfUtcDay, utcDay } from '../../platform/time.js';
import { readStatesAndChanges } from '../../records/records.store.js';
import { NO_COUNTS, scoreAssessed, scoreOf, } from '../../records/score.js';
import { atBounds, countsAtBounds, splitStateKey, stateKey } from '../../records/state-log.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { analysisOf } from '../cte/analysis.service.js';
import { propagateRecords, } from '../cte/graph.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
import { complianceRollupJob, rollupJobId } from './rollup.job.js';
import { lastRollableDay, orgCreatedAt } from './rollup.service.js';
import { selectHistoryStart, selectRollups } from './rollups.store.js';
/** Three years of daily points; longer ranges must use a coarser interval. */
export const MAX_HISTORY_POINTS = 1100;
export const DEFAULT_HISTORY_DAYS = 30;
export function resolveRange(query, now) {
    const interval = query.interval ?? 'daily';
    const to = query.to ? parseInstant(query.to, 'querystring.to') : now;
    const from = query.from
        ? parseInstant(query.from, 'querystring.from')
        : new Date(startOfUtcDay(now).getTime() - (DEFAULT_HISTORY_DAYS - 1) * DAY_MS);
    if (from > to) {
        throw badRequest('from must not be after to', {
            fields: [{ field: 'querystring.from', message: 'must not be after to' }],
        });
    }
    // Periods that have not begun have no state yet.
    const periods = periodsBetween(from, to < now ? to : now, interval, MAX_HISTORY_POINTS);
    if (!periods) {
        throw badRequest(`The range spans more than ${MAX_HISTORY_POINTS} ${interval} periods`, {
            fields: [{ field: 'querystring.from', message: `too far from to for interval ${interval}` }],
            maxPoints: MAX_HISTORY_POINTS,
        });
    }
    return { interval, from, to, periods };
}
/** When the org was created and where its roll-ups end: decides which changes a history must read. */
async function readHistoryStart(em, orgId) {
    const start = await selectHistoryStart(em, orgId, ISO_42001);
    if (!start)
        return null;
    const { createdAt, lastRollup } = start;
    return { createdAt, since: lastRollup ? Date.parse(`${lastRollup}T00:00:00Z`) + DAY_MS : createdAt };
}
/**
 * The roll-ups of the finished days asked for, then the current states and the changes since `since`.
 * `since` is passed as a value (not computed in the statement) so that the planner walks the change-log
 * index from it.
 */
async function readHistoryInputs(em, orgId, days, since) {
    const rollups = await selectRollups(em, orgId, ISO_42001, days, DAY_MS);
    const { states, changes } = await readStatesAndChanges(em, orgId, new Date(since), ISO_42001);
    return {
        rollups,
        states: new Map(states.map((state) => [stateKey(state.frameworkId, state.requirementId), state])),
        changes,
    };
}
/**
 * History of a rolled-up framework, exact: finished periods read the daily roll-up of their last day;
 * the rest (the current period, days not rolled up yet) are rebuilt by unwinding the changes made since
 * the last roll-up from the current state. Should roll-ups be missing further back, the changes are read
 * again from the earliest instant needed.
 */
async function rolledUpHistory(em, orgId, query, now) {
    const { interval, from, to, periods } = resolveRange(query, now);
    // State at a bound = every change before it; the current period's bound is "now" (Infinity).
    const bounds = periods.map((period) => period.end.getTime() <= now.getTime() ? period.end.getTime() : Number.POSITIVE_INFINITY);
    const finishedDays = bounds.filter(Number.isFinite).map((bound) => utcDay(new Date(bound - DAY_MS)));
    const start = await readHistoryStart(em, orgId);
    if (!start)
        throw resourceNotFound('Organization', { orgId });
    const { createdAt } = start;
    let since = start.since;
    let inputs = await readHistoryInputs(em, orgId, finishedDays, since);
    const missingOf = (rollups) => bounds.filter((bound) => bound > createdAt && !rollups.has(bound));
    let missing = missingOf(inputs.rollups);
    // A hole in the roll-ups before the last one: read the log from there (`since` only ever moves back).
    while (Math.min(...missing) < since) {
        since = Math.min(...missing);
        inputs = await readHistoryInputs(em, orgId, finishedDays, since);
        missing = missingOf(inputs.rollups);
    }
    const counts = new Map([...inputs.rollups, ...countsAtBounds(inputs.states, inputs.changes, missing)]);
    const rollable = lastRollableDay(now).getTime() + DAY_MS;
    const rollupsBehind = missing.some((bound) => Number.isFinite(bound) && bound <= rollable);
    const points = periods.map((period, index) => {
        const pointCounts = counts.get(bounds[index]) ?? NO_COUNTS;
        return {
            periodStart: period.start.toISOString(),
            periodEnd: period.end.toISOString(),
            asOf: (Number.isFinite(bounds[index]) ? period.end : now).toISOString(),
            score: scoreOf(pointCounts),
            counts: { ...pointCounts },
        };
    });
    return {
        history: { orgId, interval, from: from.toISOString(), to: to.toISOString(), points },
        rollupsBehind,
    };
}
/** The direct records a set of logged states amounts to, as propagation reads them. */
function directRecordsOf(states) {
    const records = new Map();
    for (const [key, state] of states) {
        if (state.status === null && state.applicable !== false)
            continue;
        const { frameworkId, requirementId } = splitStateKey(key);
        const framework = records.get(frameworkId) ?? new Map();
        framework.set(requirementId, {
            status: state.status ?? 'not_started',
            applicable: state.applicable ?? true,
            ...(state.status === null ? { statusRecorded: false } : {}),
        });
        records.set(frameworkId, framework);
    }
    return records;
}
/**
 * History of a framework without roll-ups: the state at the end of each period, rebuilt exactly from the
 * change log of every framework (inference depends on all of them) and propagated over the current
 * library. Each distinct state is propagated once.
 */
async function replayedHistory(em, orgId, frameworkId, query, now) {
    const { library } = await currentLibrary(em);
    requireFramework(library, frameworkId);
    const { interval, from, to, periods } = resolveRange(query, now);
    const createdAt = await orgCreatedAt(em, orgId);
    if (!createdAt)
        throw resourceNotFound('Organization', { orgId });
    const bounds = periods.map((period) => period.end.getTime() <= now.getTime() ? period.end.getTime() : Number.POSITIVE_INFINITY);
    const { states, changes } = await readStatesAndChanges(em, orgId, createdAt);
    const current = new Map(states.map((state) => [
        stateKey(state.frameworkId, state.requirementId),
        { status: state.status, applicable: state.applicable },
    ]));
    const byPosition = new Map();
    const measured = atBounds(current, changes, bounds, (atBound, unwound) => {
        let result = byPosition.get(unwound);
        if (!result) {
            const coverage = propagateRecords(library, directRecordsOf(atBound));
            result = scoreAssessed(coverage.forFramework(frameworkId));
            byPosition.set(unwound, result);
        }
        return result;
    });
    // The current point is the live score, which also counts implemented records whose evidence has all
    // expired as in progress; finished periods count recorded statuses, as the ISO 42001 history does.
    const live = bounds.some((bound) => !Number.isFinite(bound))
        ? scoreAssessed((await analysisOf(em, orgId)).coverage.forFramework(frameworkId))
        : undefined;
    const points = periods.map((period, index) => {
        const bound = bounds[index];
        const existed = bound > createdAt.getTime();
        const result = !existed ? undefined : Number.isFinite(bound) ? measured.get(bound) : live;
        const counts = result?.counts ?? NO_COUNTS;
        return {
            periodStart: period.start.toISOString(),
            periodEnd: period.end.toISOString(),
            asOf: (Number.isFinite(bound) ? period.end : now).toISOString(),
            score: result ? result.score : null,
            counts: { ...counts },
        };
    });
    return { orgId, interval, from: from.toISOString(), to: to.toISOString(), points };
}
/**
 * Frameworks whose daily counts are rolled up (features/scores/rollup.service.ts). Roll-ups count direct
 * records only, which is exact for a framework whose every requirement keeps a record: inference cannot
 * change it. ISO/IEC 42001 is such a framework; the others are replayed with the crosswalk.
 */
export const ROLLED_UP_FRAMEWORKS = new Set([ISO_42001]);
/**
 * The score of one framework at the end of each period. The history service chooses how: from daily
 * roll-ups where a framework has them (a speed-up with the same answer), else by replaying the change log.
 */
export async function scoreHistory(em, orgId, frameworkId, query, now = new Date()) {
    if (ROLLED_UP_FRAMEWORKS.has(frameworkId))
        return rolledUpHistory(em, orgId, query, now);
    return { history: await replayedHistory(em, orgId, frameworkId, query, now), rollupsBehind: false };
}
/** At most one on-demand roll-up request per org in this interval; the schedule covers the rest. */
const ROLLUP_REQUEST_INTERVAL_MS = 60_000;
/**
 * Score history as the routes serve it: when finished days turn out not to be rolled up yet, it asks the
 * job queue for the roll-up (at most once a minute per org) and never waits for it, so a queue that is
 * down costs the read nothing.
 */
export class ScoreHistory {
    jobs;
    log;
    requestedAt = new Map();
    constructor(jobs, log) {
        this.jobs = jobs;
        this.log = log;
    }
    async read(em, orgId, frameworkId, query) {
        const { history, rollupsBehind } = await scoreHistory(em, orgId, frameworkId, query);
        if (rollupsBehind)
            this.requestRollup(orgId);
        return history;
    }
    requestRollup(orgId) {
        const now = Date.now();
        if (now - (this.requestedAt.get(orgId) ?? 0) < ROLLUP_REQUEST_INTERVAL_MS)
            return;
        this.requestedAt.set(orgId, now);
        this.jobs
            .enqueue(complianceRollupJob, { orgId }, { jobId: rollupJobId(orgId, utcDay(new Date(now))) })
            .catch((error) => this.log.warn({ err: error, orgId }, 'could not queue the compliance roll-up'));
    }
}
//# sourceMappingURL=history.service.js.map