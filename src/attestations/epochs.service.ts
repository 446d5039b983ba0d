import type { Static } from 'typebox';
import type { Em } from '../db.js';
import { resourceNotFound } from '../errors.js';
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
}

/**
 * Count, time span and Merkle root of an epoch, from one statement: one consistent snapshot however
 * many attestations arrive meanwhile. The database sorts the rows and hands over their content hashes
 * as one byte string, so the daemon sees no row objects.
 */
export async function summarizeEpoch(em: Em, orgId: string, epochId: string): Promise<EpochSummary> {
  const [row] = await em.execute<EpochRow[]>(
    `select count(*) as count,
       count(*) filter (where level = 'L0') as l0,
       count(*) filter (where level = 'L2') as l2,
       min(attested_at) as first, max(attested_at) as last,
       string_agg(decode(content_hash, 'hex'), ''::bytea order by attested_at, attestation_id) as leaves
     from attestations where org_id = ? and epoch_id = ?`,
    [orgId, epochId],
  );
  const count = Number(row?.count ?? 0);
  if (!row || count === 0 || !row.leaves || row.first === null || row.last === null) {
    throw resourceNotFound('Epoch', { epochId });
  }
  if (row.leaves.length !== count * 32) throw new Error(`Epoch ${epochId} holds a malformed content hash`);
  const tree = new MerkleTreeBuilder();
  tree.pushAll(row.leaves);
  return {
    orgId,
    epochId,
    count,
    levels: { L0: Number(row.l0), L2: Number(row.l2) },
    firstTimestamp: new Date(row.first).toISOString(),
    lastTimestamp: new Date(row.last).toISOString(),
    merkleRoot: tree.root().toString('hex'),
    merkle: MERKLE_DESCRIPTION,
  };
}

/** Epochs whose summary is kept; the least recently read is dropped first. */
const MAX_CACHED_EPOCHS = 256;

/**
 * Epoch summaries kept between reads. Attestations are only ever added (the primary key guards every
 * insert and nothing updates or deletes one short of the org itself), so an epoch whose row count is
 * the one its summary was computed from holds exactly the same rows: each read checks that count with
 * one index-only scan, on whatever daemon wrote the rows, and recomputes when it moved. The org's
 * creation time is part of the check, so a deleted and re-created org never meets an old summary.
 */
export class EpochSummaryCache {
  private readonly entries = new Map<
    string,
    { count: number; orgCreatedAt: string; summary: EpochSummary }
  >();

  async read(em: Em, orgId: string, epochId: string): Promise<EpochSummary> {
    const key = `${orgId}\u0000${epochId}`;
    const cached = this.entries.get(key);
    if (cached) {
      const current = await currentState(em, orgId, epochId);
      this.entries.delete(key);
      if (current.count === cached.count && current.orgCreatedAt === cached.orgCreatedAt) {
        this.entries.set(key, cached);
        return cached.summary;
      }
    }
    const orgCreatedAt = (await currentState(em, orgId, null)).orgCreatedAt;
    const summary = await summarizeEpoch(em, orgId, epochId);
    // The summary's own count is the one to check against: it describes the rows it was computed from.
    this.entries.set(key, { count: summary.count, orgCreatedAt, summary });
    if (this.entries.size > MAX_CACHED_EPOCHS) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return summary;
  }
}

/** The epoch's row count (0 without an epoch) and the org's creation time, in one statement. */
async function currentState(
  em: Em,
  orgId: string,
  epochId: string | null,
): Promise<{ count: number; orgCreatedAt: string }> {
  const [row] = await em.execute<{ count: number | string; created: Date | string | null }[]>(
    epochId === null
      ? 'select 0 as count, created_at as created from orgs where org_id = ?'
      : `select (select count(*) from attestations where org_id = ? and epoch_id = ?) as count,
           (select created_at from orgs where org_id = ?) as created`,
    epochId === null ? [orgId] : [orgId, epochId, orgId],
  );
  return {
    count: Number(row?.count ?? 0),
    orgCreatedAt: row?.created ? new Date(row.created).toISOString() : '',
  };
}
