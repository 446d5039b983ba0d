import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { badRequest, resourceNotFound } from '../../platform/errors.js';
import { DAY_MS, parseInstant, periodsBetween, startOfUtcDay, utcDay } from '../../platform/time.js';
import { readStatesAndChanges } from '../../records/records.store.js';
import { type ControlState, type ScoreCounts, scoreOf } from '../../records/score.js';
import { countsAtBounds, stateKey } from '../../records/state-log.js';
import type { Interval } from '../../shared/vocabulary.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import type { HistorySchema } from './compliance.schemas.js';
import { lastRollableDay } from './rollup.service.js';

export type HistoryView = Static<typeof HistorySchema>;

/** Three years of daily points; longer ranges must use a coarser interval. */
export const MAX_HISTORY_POINTS = 1100;
export const DEFAULT_HISTORY_DAYS = 30;

export const NO_COUNTS: ScoreCounts = { implemented: 0, inProgress: 0, notStarted: 0, notApplicable: 0 };

export interface HistoryQuery {
  from?: string;
  to?: string;
  interval?: Interval;
}

export interface HistoryResult {
  history: HistoryView;
  /** True when finished days were rebuilt from the log because their roll-ups are missing. */
  rollupsBehind: boolean;
}

export function resolveRange(query: HistoryQuery, now: Date) {
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
async function readHistoryStart(em: Em, orgId: string) {
  const [row] = await em.execute<{ createdAt: string | Date; lastRollup: string | null }[]>(
    `select o.created_at as "createdAt", (select to_char(max(day), 'YYYY-MM-DD') from compliance_rollups r
       where r.org_id = o.org_id and r.framework_id = ?) as "lastRollup"
     from orgs o where o.org_id = ?`,
    [ISO_42001, orgId],
  );
  if (!row) return null;
  const createdAt = new Date(row.createdAt).getTime();
  return {
    createdAt,
    since: row.lastRollup ? Date.parse(`${row.lastRollup}T00:00:00Z`) + DAY_MS : createdAt,
  };
}

/**
 * The roll-ups of the finished days asked for, then the current states and the changes since `since`.
 * `since` is passed as a value (not computed in the statement) so that the planner walks the change-log
 * index from it.
 */
async function readHistoryInputs(em: Em, orgId: string, days: string[], since: number) {
  // Consecutive days (a daily history) are one index range; weekly or monthly ones a list of days.
  const consecutive =
    days.length > 0 && Date.parse(days.at(-1) as string) - Date.parse(days[0]) === (days.length - 1) * DAY_MS;
  const dayFilter = consecutive ? 'r.day between ?::date and ?::date' : 'r.day = any(?::date[])';
  const dayParams = consecutive ? [days[0], days.at(-1)] : [`{${days.join(',')}}`];
  const rollups = await em.execute<
    { day: number; implemented: number; inProgress: number; notStarted: number; notApplicable: number }[]
  >(
    `select r.day - date '1970-01-01' as day, r.implemented, r.in_progress as "inProgress",
       r.not_started as "notStarted", r.not_applicable as "notApplicable"
     from compliance_rollups r where r.org_id = ? and r.framework_id = ? and ${dayFilter}`,
    [orgId, ISO_42001, ...dayParams],
  );
  const { states, changes } = await readStatesAndChanges(em, orgId, new Date(since), ISO_42001);
  return {
    rollups: new Map<number, ScoreCounts>(
      rollups.map(({ day, implemented, inProgress, notStarted, notApplicable }) => [
        (day + 1) * DAY_MS,
        { implemented, inProgress, notStarted, notApplicable },
      ]),
    ),
    states: new Map<string, ControlState>(
      states.map((state) => [stateKey(state.frameworkId, state.requirementId), state]),
    ),
    changes,
  };
}

/**
 * The state at the end of each period, exact: finished periods read the daily roll-up of their last day;
 * the rest (the current period, days not rolled up yet) are rebuilt by unwinding the changes made since
 * the last roll-up from the current state. Should roll-ups be missing further back, the changes are read
 * again from the earliest instant needed.
 */
export async function complianceHistory(
  em: Em,
  orgId: string,
  query: HistoryQuery,
  now = new Date(),
): Promise<HistoryResult> {
  const { interval, from, to, periods } = resolveRange(query, now);
  // State at a bound = every change before it; the current period's bound is "now" (Infinity).
  const bounds = periods.map((period) =>
    period.end.getTime() <= now.getTime() ? period.end.getTime() : Number.POSITIVE_INFINITY,
  );
  const finishedDays = bounds.filter(Number.isFinite).map((bound) => utcDay(new Date(bound - DAY_MS)));

  const start = await readHistoryStart(em, orgId);
  if (!start) throw resourceNotFound('Organization', { orgId });
  const { createdAt } = start;
  let since = start.since;
  let inputs = await readHistoryInputs(em, orgId, finishedDays, since);
  const missingOf = (rollups: Map<number, ScoreCounts>) =>
    bounds.filter((bound) => bound > createdAt && !rollups.has(bound));
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
