export const ROW_COLUMNS = 'org_id, attestation_id, content, content_hash, server_assigned_id, signature_key_id, signature_value, received_at';
const INSERT_COLUMNS = [
    'org_id',
    'attestation_id',
    'level',
    'epoch_id',
    'system_id',
    'attested_at',
    'content',
    'content_hash',
    'server_assigned_id',
    'signature_key_id',
    'signature_value',
    'posted_by',
    'received_at',
];
const ROW_PLACEHOLDER = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
export const rowKey = (orgId, attestationId) => `${orgId}\u0000${attestationId}`;
/**
 * Inserts the rows in one statement and returns the keys of those that were new. A row whose id
 * exists already (committed, or committed meanwhile by a concurrent writer the statement waits for)
 * is skipped: the unique key, not a prior read, decides. Rows go in key order so that concurrent
 * batches take their locks in the same order.
 */
export async function insertAttestations(tx, rows, receivedAt) {
    const sorted = [...rows].sort((a, b) => a.orgId === b.orgId ? compareIds(a.attestationId, b.attestationId) : compareIds(a.orgId, b.orgId));
    const params = sorted.flatMap((row) => [
        row.orgId,
        row.attestationId,
        row.level,
        row.epochId,
        row.systemId,
        row.timestamp,
        row.content,
        row.contentHash,
        row.serverAssignedId,
        row.signature?.keyId ?? null,
        row.signature?.value ?? null,
        row.postedBy,
        receivedAt,
    ]);
    const inserted = await tx.execute(`insert into attestations (${INSERT_COLUMNS.join(', ')})
     values ${sorted.map(() => ROW_PLACEHOLDER).join(', ')}
     on conflict (org_id, attestation_id) do nothing
     returning org_id, attestation_id`, params);
    return new Set(inserted.map((row) => rowKey(row.org_id, row.attestation_id)));
}
/** Byte order, as the "C" collation of the id columns sorts. */
const compareIds = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/** The stored rows for the given (org, id) pairs, by `rowKey`. */
export async function findAttestationRows(em, keys) {
    if (keys.length === 0)
        return new Map();
    const rows = await em.execute(`select ${ROW_COLUMNS} from attestations
     where (org_id, attestation_id) in (${keys.map(() => '(?, ?)').join(', ')})`, keys.flatMap((key) => [key.orgId, key.attestationId]));
    return new Map(rows.map((row) => [rowKey(row.org_id, row.attestation_id), row]));
}
export function recordFromRow(row) {
    const content = JSON.parse(row.content);
    return {
        attestationId: row.attestation_id,
        level: content.level,
        epochId: content.epochId,
        systemId: content.systemId ?? null,
        controlIds: content.controlIds,
        timestamp: content.timestamp,
        claims: content.claims,
        signature: row.signature_key_id === null || row.signature_value === null
            ? null
            : { alg: 'Ed25519', keyId: row.signature_key_id, value: row.signature_value },
        contentHash: row.content_hash,
        serverAssignedId: row.server_assigned_id,
        receivedAt: new Date(row.received_at).toISOString(),
    };
}
export const recordFromPrepared = (row, receivedAt) => ({
    attestationId: row.attestationId,
    level: row.level,
    epochId: row.epochId,
    systemId: row.systemId,
    controlIds: row.controlIds,
    timestamp: row.timestamp,
    claims: row.claims,
    signature: row.signature,
    contentHash: row.contentHash,
    serverAssignedId: row.serverAssignedId,
    receivedAt: receivedAt.toISOString(),
});
//# sourceMappingURL=attestations.store.js.map