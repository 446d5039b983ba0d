import { IsolationLevel } from '@mikro-orm/core';
import { DAY_MS, startOfUtcDay, utcDay } from '../../platform/time.js';
import { selectOrg, selectOrgIds } from '../../records/orgs.store.js';
import { readChangesSince, readRecordStates } from '../../records/records.store.js';
import { countsAtBounds, stateKey } from '../../records/state-log.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { selectLastRollupDay, upsertRollups } from './rollups.store.js';
/**
 * A day is rolled up only once it ended this long ago, so that a change stamped just before midnight
 * whose transaction commits just after cannot be missed by the roll-up of that day.
 */
export const ROLLUP_GRACE_MS = 5 * 60_000;
/** The last UTC day that may be rolled up at `now`. */
export const lastRollableDay = (now) => new Date(startOfUtcDay(new Date(now.getTime() - ROLLUP_GRACE_MS)).getTime() - DAY_MS);
/** When the org was created; null when there is no such org. */
export async function orgCreatedAt(em, orgId) {
    const org = await selectOrg(em, orgId);
    return org ? new Date(org.createdAt) : null;
}
/**
 * Rolls up every complete day since the org's last roll-up (or its creation). Reads and writes in one
 * repeatable-read transaction, so the current state and the change log it unwinds agree. Idempotent:
 * running it twice, or concurrently, writes the same rows. Returns the number of days written.
 */
export async function rollupOrg(em, orgId, now = new Date()) {
    return em.transactional(async (tx) => {
        const createdAt = await orgCreatedAt(tx, orgId);
        if (!createdAt)
            return 0;
        const lastDay = await selectLastRollupDay(tx, orgId, ISO_42001);
        const firstDay = lastDay
            ? new Date(Date.parse(`${lastDay}T00:00:00Z`) + DAY_MS)
            : startOfUtcDay(createdAt);
        const lastRollable = lastRollableDay(now);
        if (firstDay > lastRollable)
            return 0;
        const days = [];
        for (let day = firstDay; day <= lastRollable; day = new Date(day.getTime() + DAY_MS))
            days.push(day);
        const bounds = days.map((day) => day.getTime() + DAY_MS);
        const states = await readRecordStates(tx, orgId, { frameworkId: ISO_42001 });
        const counts = countsAtBounds(new Map(states.map((state) => [stateKey(state.frameworkId, state.requirementId), state])), await readChangesSince(tx, orgId, new Date(bounds[0]), ISO_42001), bounds);
        const rows = days.map((day, index) => ({
            day: utcDay(day),
            ...counts.get(bounds[index]),
        }));
        await upsertRollups(tx, orgId, ISO_42001, rows, now);
        return rows.length;
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ });
}
/** Rolls up one org, or every org; reports progress per org. */
export async function rollupOrgs(em, options) {
    const orgIds = options.orgId ? [options.orgId] : await selectOrgIds(em);
    let days = 0;
    for (const [index, orgId] of orgIds.entries()) {
        days += await rollupOrg(em, orgId, options.now);
        await options.progress?.(Math.round((100 * (index + 1)) / orgIds.length));
    }
    return { orgs: orgIds.length, days };
}
//# sourceMappingURL=rollup.service.js.map