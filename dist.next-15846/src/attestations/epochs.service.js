import { IsolationLevel } from '@mikro-orm/core';
import { resourceNotFound } from '../errors.js';
import { MerkleTreeBuilder } from './epoch.merkle.js';
const CHUNK = 5000;
export const MERKLE_DESCRIPTION = {
    algorithm: 'RFC 6962 Merkle Tree Hash over SHA-256 (leaf = SHA-256(0x00 || data), node = SHA-256(0x01 || left || right))',
    leaves: "the 32 bytes of each attestation's contentHash",
    order: 'timestamp ascending, then attestationId ascending (byte order)',
};
/**
 * Count, time span and Merkle root of an epoch. The rows stream through in chunks inside one
 * repeatable-read transaction, so the figures describe one consistent snapshot however long it takes
 * and however many attestations arrive meanwhile.
 */
export async function summarizeEpoch(em, orgId, epochId) {
    return em.transactional(async (tx) => {
        const tree = new MerkleTreeBuilder();
        const levels = { L0: 0, L2: 0 };
        let first = null;
        let last = null;
        for (;;) {
            const after = last ? 'and (attested_at, attestation_id) > (?, ?)' : '';
            const rows = await tx.execute(`select attestation_id, attested_at, level, content_hash from attestations
           where org_id = ? and epoch_id = ? ${after}
           order by attested_at, attestation_id limit ?`, [orgId, epochId, ...(last ? [last.time, last.attestationId] : []), CHUNK]);
            for (const row of rows) {
                tree.push(Buffer.from(row.content_hash, 'hex'));
                levels[row.level] += 1;
            }
            const tail = rows.at(-1);
            if (tail) {
                first ??= new Date(rows[0].attested_at);
                last = { time: new Date(tail.attested_at), attestationId: tail.attestation_id };
            }
            if (rows.length < CHUNK)
                break;
        }
        if (!first || !last)
            throw resourceNotFound('Epoch', { epochId });
        return {
            orgId,
            epochId,
            count: tree.size,
            levels,
            firstTimestamp: first.toISOString(),
            lastTimestamp: last.time.toISOString(),
            merkleRoot: tree.root().toString('hex'),
            merkle: MERKLE_DESCRIPTION,
        };
    }, { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true });
}
//# sourceMappingURL=epochs.service.js.map