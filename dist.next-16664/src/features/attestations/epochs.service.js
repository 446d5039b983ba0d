import { LruCache } from '../../platform/cache/lru-cache.js';
import { resourceNotFound } from '../../platform/errors.js';
import { MerkleTreeBuilder } from './epoch.merkle.js';
import { foldEpochCounts, selectEpochCountToken, selectEpochRow } from './epochs.store.js';
export const MERKLE_DESCRIPTION = {
    algorithm: 'RFC 6962 Merkle Tree Hash over SHA-256 (leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || left || right))',
    leaves: "the 32 bytes of each attestation's contentHash",
    order: 'timestamp ascending, then attestationId ascending (byte order)',
};
/**
 * Count, time span and Merkle root of an epoch, from one statement: one consistent snapshot however
 * many attestations arrive meanwhile. The database sorts the rows and hands over their content hashes
 * as one byte string, so the daemon sees no row objects.
 */
export async function summarizeEpoch(em, orgId, epochId) {
    return (await summarizeWithToken(em, orgId, epochId)).summary;
}
async function summarizeWithToken(em, orgId, epochId) {
    const row = await selectEpochRow(em, orgId, epochId);
    const count = Number(row?.count ?? 0);
    if (!row || count === 0 || !row.leaves || row.first === null || row.last === null) {
        throw resourceNotFound('Epoch', { epochId });
    }
    if (row.leaves.length !== count * 32)
        throw new Error(`Epoch ${epochId} holds a malformed content hash`);
    const tree = new MerkleTreeBuilder();
    tree.pushAll(row.leaves);
    const summary = {
        orgId,
        epochId,
        count,
        levels: { L0: Number(row.l0), L2: Number(row.l2) },
        firstTimestamp: row.first,
        lastTimestamp: row.last,
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
    entries = new LruCache(MAX_CACHED_EPOCHS);
    async read(em, orgId, epochId) {
        const key = `${orgId}\u0000${epochId}`;
        const cached = this.entries.get(key);
        if (cached) {
            const token = await selectEpochCountToken(em, orgId, epochId);
            if (token === cached.token)
                return cached.summary;
            this.entries.delete(key);
        }
        await foldEpochCounts(em, orgId, epochId);
        const { summary, token } = await summarizeWithToken(em, orgId, epochId);
        if (token !== null)
            this.entries.set(key, { token, summary });
        return summary;
    }
}
//# sourceMappingURL=epochs.service.js.map