import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
const COLUMNS = `org_id as "orgId", key_id as "keyId", name, public_key as "publicKey", fingerprint,
  created_at as "createdAt", revoked_at as "revokedAt"`;
const toKey = (row) => ({
    ...row,
    createdAt: toIso(row.createdAt),
    revokedAt: toIsoOrNull(row.revokedAt),
});
/** The new key, or null when the org has a key of that id already. */
export async function insertSidecarKey(em, key, now) {
    const [row] = await em.execute(`insert into sidecar_keys (org_id, key_id, name, public_key, fingerprint, created_at)
     values (?, ?, ?, ?, ?, ?) on conflict (org_id, key_id) do nothing returning ${COLUMNS}`, [key.orgId, key.keyId, key.name, key.publicKey, key.fingerprint, now]);
    return row ? toKey(row) : null;
}
/** The org's keys, oldest first. */
export async function selectSidecarKeys(em, orgId) {
    const rows = await em.execute(`select ${COLUMNS} from sidecar_keys where org_id = ? order by created_at, key_id`, [orgId]);
    return rows.map(toKey);
}
export async function selectSidecarKey(em, orgId, keyId) {
    const [row] = await em.execute(`select ${COLUMNS} from sidecar_keys where org_id = ? and key_id = ?`, [orgId, keyId]);
    return row ? toKey(row) : null;
}
/** Revoking twice is harmless: the first revocation time stays. Null when there is no such key. */
export async function revokeSidecarKeyRow(em, orgId, keyId, now) {
    const [row] = await em.execute(`update sidecar_keys set revoked_at = coalesce(revoked_at, ?)
     where org_id = ? and key_id = ? returning ${COLUMNS}`, [now, orgId, keyId]);
    return row ? toKey(row) : null;
}
/** What signature checks need of a key: its raw public key and whether it is revoked. */
export async function selectVerificationKey(em, orgId, keyId) {
    const [row] = await em.execute(`select public_key as "publicKey", revoked_at is not null as revoked from sidecar_keys
     where org_id = ? and key_id = ?`, [orgId, keyId]);
    return row ?? null;
}
//# sourceMappingURL=sidecar-keys.store.js.map