import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../../platform/db/database.js';
import { DAY_MS, startOfUtcDay, utcDay } from '../../platform/time.js';
import { readChangesSince, readRecordStates } from '../../records/records.store.js';
import type { ScoreCounts } from '../../records/score.js';
import { countsAtBounds, stateKey } from '../../records/state-log.js';
import { ISO_42001 } from '../../shared/vocabulary.js';

/**
 * A day is rolled up only once it ended this long ago, so that a change stamped just before midnight
 * whose transaction commits just after cannot be missed by the roll-up of that day.
 */
export const ROLLUP_GRACE_MS = 5 * 60_000;

const INSERT_CHUNK = 500;

export interface RollupRow extends ScoreCounts {
  day: string;
}

/** The last UTC day that may be rolled up at `now`. */
export const lastRollableDay = (now: Date) =>
  new Date(startOfUtcDay(new Date(now.getTime() - ROLLUP_GRACE_MS)).getTime() - DAY_MS);

export async function orgCreatedAt(tx: Em, orgId: string): Promise<Date | null> {
  const [org] = await tx.execute<{ createdAt: Date | string }[]>(
    'select created_at as "createdAt" from orgs where org_id = ?',
    [orgId],
  );
  return org ? new Date(org.createdAt) : null;
}

async function writeRollups(tx: Em, orgId: string, rows: RollupRow[], now: Date): Promise<void> {
  for (let index = 0; index < rows.length; index += INSERT_CHUNK) {
    const chunk = rows.slice(index, index + INSERT_CHUNK);
    await tx.execute(
      `insert into compliance_rollups
         (org_id, framework_id, day, implemented, in_progress, not_started, not_applicable, computed_at)
       values ${chunk.map(() => '(?, ?, ?::date, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (org_id, framework_id, day) do update set implemented = excluded.implemented,
         in_progress = excluded.in_progress, not_started = excluded.not_started,
         not_applicable = excluded.not_applicable, computed_at = excluded.computed_at`,
      chunk.flatMap((row) => [
        orgId,
        ISO_42001,
        row.day,
        row.implemented,
        row.inProgress,
        row.notStarted,
        row.notApplicable,
        now,
      ]),
    );
  }
}

/**
 * Rolls up every complete day since the org's last roll-up (or its creation). Reads and writes in one
 * repeatable-read transaction, so the current state and the change log it unwinds agree. Idempotent:
 * running it twice, or concurrently, writes the same rows. Returns the number of days written.
 */
export async function rollupOrg(em: Em, orgId: string, now = new Date()): Promise<number> {
  return em.transactional(
    async (tx) => {
      const createdAt = await orgCreatedAt(tx, orgId);
      if (!createdAt) return 0;
      const [last] = await tx.execute<{ day: string | null }[]>(
        `select to_char(max(day), 'YYYY-MM-DD') as day from compliance_rollups
         where org_id = ? and framework_id = ?`,
        [orgId, ISO_42001],
      );
      const firstDay = last.day
        ? new Date(Date.parse(`${last.day}T00:00:00Z`) + DAY_MS)
        : startOfUtcDay(createdAt);
      const lastDay = lastRollableDay(now);
      if (firstDay > lastDay) return 0;

      const days: Date[] = [];
      for (let day = firstDay; day <= lastDay; day = new Date(day.getTime() + DAY_MS)) days.push(day);
      const bounds = days.map((day) => day.getTime() + DAY_MS);
      const states = await readRecordStates(tx, orgId, { frameworkId: ISO_42001 });
      const counts = countsAtBounds(
        new Map(states.map((state) => [stateKey(state.frameworkId, state.requirementId), state])),
        await readChangesSince(tx, orgId, new Date(bounds[0]), ISO_42001),
        bounds,
      );
      const rows = days.map((day, index) => ({
        day: utcDay(day),
        ...(counts.get(bounds[index]) as ScoreCounts),
      }));
      await writeRollups(tx, orgId, rows, now);
      return rows.length;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

/** Rolls up one org, or every org; reports progress per org. */
export async function rollupOrgs(
  em: Em,
  options: { orgId?: string; now?: Date; progress?: (percent: number) => unknown },
): Promise<{ orgs: number; days: number }> {
  const orgIds = options.orgId
    ? [options.orgId]
    : (await em.execute<{ orgId: string }[]>('select org_id as "orgId" from orgs order by org_id')).map(
        (row) => row.orgId,
      );
  let days = 0;
  for (const [index, orgId] of orgIds.entries()) {
    days += await rollupOrg(em, orgId, options.now);
    await options.progress?.(Math.round((100 * (index + 1)) / orgIds.length));
  }
  return { orgs: orgIds.length, days };
}
