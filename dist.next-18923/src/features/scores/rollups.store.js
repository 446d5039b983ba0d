const INSERT_CHUNK = 500;
/**
 * When the org was created (epoch milliseconds) and the last day rolled up for the framework, in one round
 * trip: the history service reads both before anything else. Null when the org does not exist.
 */
export async function selectHistoryStart(em, orgId, frameworkId) {
    const [row] = await em.execute(`select o.created_at as "createdAt", (select to_char(max(day), 'YYYY-MM-DD') from compliance_rollups r
       where r.org_id = o.org_id and r.framework_id = ?) as "lastRollup"
     from orgs o where o.org_id = ?`, [frameworkId, orgId]);
    return row ? { createdAt: new Date(row.createdAt).getTime(), lastRollup: row.lastRollup } : null;
}
/** The last day rolled up for the framework, `YYYY-MM-DD`, or null. */
export async function selectLastRollupDay(tx, orgId, frameworkId) {
    const [last] = await tx.execute(`select to_char(max(day), 'YYYY-MM-DD') as day from compliance_rollups
     where org_id = ? and framework_id = ?`, [orgId, frameworkId]);
    return last.day;
}
/**
 * The roll-ups of the days asked for (`YYYY-MM-DD`), keyed by the instant their day ends (epoch ms).
 * Consecutive days (a daily history) are read as one index range; weekly or monthly ones as a list of days.
 */
export async function selectRollups(em, orgId, frameworkId, days, dayMs) {
    const consecutive = days.length > 0 && Date.parse(days.at(-1)) - Date.parse(days[0]) === (days.length - 1) * dayMs;
    const dayFilter = consecutive ? 'r.day between ?::date and ?::date' : 'r.day = any(?::date[])';
    const dayParams = consecutive ? [days[0], days.at(-1)] : [`{${days.join(',')}}`];
    const rows = await em.execute(`select r.day - date '1970-01-01' as day, r.implemented, r.in_progress as "inProgress",
       r.not_started as "notStarted", r.not_applicable as "notApplicable"
     from compliance_rollups r where r.org_id = ? and r.framework_id = ? and ${dayFilter}`, [orgId, frameworkId, ...dayParams]);
    return new Map(rows.map(({ day, implemented, inProgress, notStarted, notApplicable }) => [
        (day + 1) * dayMs,
        { implemented, inProgress, notStarted, notApplicable },
    ]));
}
/** Writes (or rewrites) the roll-ups of the given days; idempotent. */
export async function upsertRollups(tx, orgId, frameworkId, rows, now) {
    for (let index = 0; index < rows.length; index += INSERT_CHUNK) {
        const chunk = rows.slice(index, index + INSERT_CHUNK);
        await tx.execute(`insert into compliance_rollups
         (org_id, framework_id, day, implemented, in_progress, not_started, not_applicable, computed_at)
       values ${chunk.map(() => '(?, ?, ?::date, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (org_id, framework_id, day) do update set implemented = excluded.implemented,
         in_progress = excluded.in_progress, not_started = excluded.not_started,
         not_applicable = excluded.not_applicable, computed_at = excluded.computed_at`, chunk.flatMap((row) => [
            orgId,
            frameworkId,
            row.day,
            row.implemented,
            row.inProgress,
            row.notStarted,
            row.notApplicable,
            now,
        ]));
    }
}
//# sourceMappingURL=rollups.store.js.map