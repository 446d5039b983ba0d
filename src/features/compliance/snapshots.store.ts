/** Compliance snapshots: the only module that reads or writes `compliance_snapshots`. */
import type { Em } from '../../platform/db/database.js';
import { toIso } from '../../platform/db/instant.js';
import type { ScoreCounts } from '../../records/score.js';

/** A snapshot as its list shows it. */
export interface SnapshotSummaryRow {
  snapshotId: string;
  label: string;
  notes: string | null;
  createdAt: string;
  score: number | null;
  counts: ScoreCounts;
  contentHash: string;
}

const SUMMARY_COLUMNS = `snapshot_id as "snapshotId", label, notes, created_at as "createdAt", score, counts,
  content_hash as "contentHash"`;

export async function snapshotLabelTaken(em: Em, orgId: string, label: string): Promise<boolean> {
  const [row] = await em.execute<{ found: number }[]>(
    'select 1 as found from compliance_snapshots where org_id = ? and label = ?',
    [orgId, label],
  );
  return row !== undefined;
}

export async function snapshotExists(em: Em, orgId: string, snapshotId: string): Promise<boolean> {
  const [row] = await em.execute<{ found: number }[]>(
    'select 1 as found from compliance_snapshots where org_id = ? and snapshot_id = ?',
    [orgId, snapshotId],
  );
  return row !== undefined;
}

/**
 * Stores a snapshot; false when the org has one of that label already (the unique constraint claims the
 * label, so two concurrent inserts cannot both succeed).
 */
export async function insertSnapshot(
  tx: Em,
  snapshot: {
    snapshotId: string;
    orgId: string;
    label: string;
    notes: string | null;
    createdAt: Date;
    createdBy: string | null;
    score: number | null;
    counts: ScoreCounts;
    content: unknown;
    contentHash: string;
  },
): Promise<boolean> {
  const inserted = await tx.execute<{ snapshotId: string }[]>(
    `insert into compliance_snapshots
       (snapshot_id, org_id, label, notes, created_at, created_by, score, counts, content, content_hash)
     values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)
     on conflict (org_id, label) do nothing returning snapshot_id as "snapshotId"`,
    [
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
    ],
  );
  return inserted.length > 0;
}

/** One page of the org's snapshots, newest first, and how many it has. */
export async function selectSnapshotSummaries(
  em: Em,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<{ snapshots: SnapshotSummaryRow[]; total: number }> {
  const rows = await em.execute<SnapshotSummaryRow[]>(
    `select ${SUMMARY_COLUMNS} from compliance_snapshots where org_id = ?
     order by created_at desc, snapshot_id desc limit ? offset ?`,
    [orgId, page.limit, page.offset],
  );
  const [{ total }] = await em.execute<{ total: number }[]>(
    'select count(*)::int as total from compliance_snapshots where org_id = ?',
    [orgId],
  );
  return { snapshots: rows.map((row) => ({ ...row, createdAt: toIso(row.createdAt) })), total };
}

/** The stored content (as hashed) and its hash. */
export async function selectSnapshotContent<C>(
  em: Em,
  orgId: string,
  snapshotId: string,
): Promise<{ content: C; contentHash: string } | null> {
  const [row] = await em.execute<{ content: C; contentHash: string }[]>(
    `select content, content_hash as "contentHash" from compliance_snapshots
     where org_id = ? and snapshot_id = ?`,
    [orgId, snapshotId],
  );
  return row ?? null;
}
