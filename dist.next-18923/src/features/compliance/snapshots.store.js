import { toIso } from '../../platform/db/instant.js';
const SUMMARY_COLUMNS = `snapshot_id as "snapshotId", label, notes, created_at as "createdAt", score, counts,
  content_hash as "contentHash"`;
export async function snapshotLabelTaken(em, orgId, label) {
    const [row] = await em.execute('select 1 as found from compliance_snapshots where org_id = ? and label = ?', [orgId, label]);
    return row !== undefined;
}
export async function snapshotExists(em, orgId, snapshotId) {
    const [row] = await em.execute('select 1 as found from compliance_snapshots where org_id = ? and snapshot_id = ?', [orgId, snapshotId]);
    return row !== undefined;
}
/**
 * Stores a snapshot; false when the org has one of that label already (the unique constraint claims the
 * label, so two concurrent inserts cannot both succeed).
 */
export async function insertSnapshot(tx, snapshot) {
    const inserted = await tx.execute(`insert into compliance_snapshots
       (snapshot_id, org_id, label, notes, created_at, created_by, score, counts, content, content_hash)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)
     on conflict (org_id, label) do nothing returning snapshot_id as "snapshotId"`, [
        snapshot.snapshotId,
        snapshot.orgId,
        snapshot.label,
        snapshot.notes,
        snapshot.createdAt,
        snapshot.createdBy,
        snapshot.score,
        JSON.stringify(snapshot.counts),
        JSON.stringify(snapshot.content),
        snapshot.contentHash,
    ]);
    return inserted.length > 0;
}
/** One page of the org's snapshots, newest first, and how many it has. */
export async function selectSnapshotSummaries(em, orgId, page) {
    const rows = await em.execute(`select ${SUMMARY_COLUMNS} from compliance_snapshots where org_id = ?
     order by created_at desc, snapshot_id desc limit ? offset ?`, [orgId, page.limit, page.offset]);
    const [{ total }] = await em.execute('select count(*)::int as total from compliance_snapshots where org_id = ?', [orgId]);
    return { snapshots: rows.map((row) => ({ ...row, createdAt: toIso(row.createdAt) })), total };
}
/** The stored content (as hashed) and its hash. */
export async function selectSnapshotContent(em, orgId, snapshotId) {
    const [row] = await em.execute(`select content, content_hash as "contentHash" from compliance_snapshots
     where org_id = ? and snapshot_id = ?`, [orgId, snapshotId]);
    return row ?? null;
}
//# sourceMappingURL=snapshots.store.js.map