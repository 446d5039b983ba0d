import type { Static } from 'typebox';
import { LruCache } from '../../platform/cache/lru-cache.js';
import type { Em } from '../../platform/db/database.js';
import { resourceNotFound } from '../../platform/errors.js';
import type { EpochSchema } from './attestations.schemas.js';
import { MerkleTreeBuilder } from './epoch.merkle.js';

export type EpochSummary = Static<typeof EpochSchema>;

export const MERKLE_DESCRIPTION = {
  algorithm:
    'RFC 6962 Merkle Tree Hash over SHA-256 (leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || left || right))',
  leaves: "the 32 bytes of each attestation's contentHash",
  order: 'timestamp ascending, then attestationId ascending (byte order)',
};

interface EpochRow {
  count: number | string;
  l0: number | string;
  l2: number | string;
  first: Date | string | null;
  last: Date | string | null;
  /** Every content hash's 32 bytes, back to back, in Merkle order. */
  leaves: Uint8Array | null;
  /** `countToken` of the same snapshot. */
  token: string | null;
}

/**
 * What an epoch's kept counts say about it: their sum (the number of its attestations) and the newest
 * piece. Rows are only ever added to an epoch, and each addition appends a piece with a new identity, so
 * the same token means the same rows; a re-created org starts from new pieces.
 */
const TOKEN = `(select coalesce(sum(attestations), 0) || '/' || coalesce(max(piece), 0)
  from attestation_epoch_counts where org_id = ? and epoch_id = ?)`;

/**
 * Count, time span and Merkle root of an epoch, from one statement: one consistent snapshot however
 * many attestations arrive meanwhile. The database sorts the rows and hands over their content hashes
 * as one byte string, so the daemon sees no row objects.
 */
export async function summarizeEpoch(em: Em, orgId: string, epochId: string): Promise<EpochSummary> {
  return (await summarizeWithToken(em, orgId, epochId)).summary;
}

async function summarizeWithToken(
  em: Em,
  orgId: string,
  epochId: string,
): Promise<{ summary: EpochSummary; token: string | null }> {
  const [row] = await em.execute<EpochRow[]>(
    `select count(*) as count,
       count(*) filter (where level = 'L0') as l0,
       count(*) filter (where level = 'L2') as l2,
       min(attested_at) as first, max(attested_at) as last,
       string_agg(decode(content_hash, 'hex'), ''::bytea order by attested_at, attestation_id) as leaves,
       ${TOKEN} as token
     from attestations where org_id = ? and epoch_id = ?`,
    [orgId, epochId, orgId, epochId],
  );
  const count = Number(row?.count ?? 0);
  if (!row || count === 0 || !row.leaves || row.first === null || row.last === null) {
    throw resourceNotFound('Epoch', { epochId });
  }
  if (row.leaves.length !== count * 32) throw new Error(`Epoch ${epochId} holds a malformed content hash`);
  const tree = new MerkleTreeBuilder();
  tree.pushAll(row.leaves);
  const summary: EpochSummary = {
    orgId,
    epochId,
    count,
    levels: { L0: Number(row.l0), L2: Number(row.l2) },
    firstTimestamp: new Date(row.first).toISOString(),
    lastTimestamp: new Date(row.last).toISOString(),
    merkleRoot: tree.root().toString('hex'),
    merkle: MERKLE_DESCRIPTION,
  };
  // A token that does not add up to the rows read (counts kept by another schema version) is not kept.
  const token = row.token?.startsWith(`${count}/`) ? row.token : null;
  return { summary, token };
}

/** Epochs whose summary is kept; the least recently read is dropped first. */
const MAX_CACHED_EPOCHS = 256;

/**
 * Epoch summaries kept between reads. Each read checks the epoch's count token (a few rows kept by the
 * database as attestations are inserted, through whatever daemon) and answers the kept summary only
 * when it is the one the summary was computed with; otherwise it recomputes. Before recomputing, the
 * epoch's pieces are folded into one, so the check stays a read of a few rows however the epoch was
 * written.
 */
export class EpochSummaryCache {
  private readonly entries = new LruCache<string, { token: string; summary: EpochSummary }>(
    MAX_CACHED_EPOCHS,
  );

  async read(em: Em, orgId: string, epochId: string): Promise<EpochSummary> {
    const key = `${orgId}\u0000${epochId}`;
    const cached = this.entries.get(key);
    if (cached) {
      const [row] = await em.execute<{ token: string }[]>(`select ${TOKEN} as token`, [orgId, epochId]);
      if (row?.token === cached.token) return cached.summary;
      this.entries.delete(key);
    }
    await foldCounts(em, orgId, epochId);
    const { summary, token } = await summarizeWithToken(em, orgId, epochId);
    if (token !== null) this.entries.set(key, { token, summary });
    return summary;
  }
}

/**
 * Replaces an epoch's count pieces by one holding their sum, in one statement. Concurrent folds do not
 * double anything: a piece another fold deleted first is skipped, and a fold that deleted nothing
 * inserts nothing.
 */
async function foldCounts(em: Em, orgId: string, epochId: string): Promise<void> {
  await em.execute(
    `with gone as (
       delete from attestation_epoch_counts where org_id = ? and epoch_id = ?
         and (select count(*) from attestation_epoch_counts where org_id = ? and epoch_id = ?) > 1
       returning attestations)
     insert into attestation_epoch_counts (org_id, epoch_id, attestations)
     select ?, ?, sum(attestations) from gone having count(*) > 0`,
    [orgId, epochId, orgId, epochId, orgId, epochId],
  );
}
