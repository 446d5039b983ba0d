import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
const COLUMNS = `key_id as "keyId", org_id as "orgId", name, scopes, key_hash as "keyHash",
  created_at as "createdAt", revoked_at as "revokedAt"`;
const toKey = (row) => ({
    ...row,
    createdAt: toIso(row.createdAt),
    revokedAt: toIsoOrNull(row.revokedAt),
});
/** A text[] literal: bound arrays would be spread into a list of parameters. */
const textArray = (values) => `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
export async function insertApiKey(em, key, now) {
    await em.execute(`insert into api_keys (key_id, org_id, name, scopes, key_hash, created_by, created_at)
     values (?, ?, ?, ?::text[], ?, ?, ?)`, [key.keyId, key.orgId, key.name, textArray(key.scopes), key.keyHash, key.createdBy, now]);
}
/** The org's keys, oldest first. */
export async function selectApiKeys(em, orgId) {
    const rows = await em.execute(`select ${COLUMNS} from api_keys where org_id = ? order by created_at, key_id`, [orgId]);
    return rows.map(toKey);
}
export async function selectApiKey(em, orgId, keyId) {
    const [row] = await em.execute(`select ${COLUMNS} from api_keys where key_id = ? and org_id = ?`, [keyId, orgId]);
    return row ? toKey(row) : null;
}
/** The key holding this secret hash, revoked or not. */
export async function selectApiKeyByHash(em, keyHash) {
    const [row] = await em.execute(`select ${COLUMNS} from api_keys where key_hash = ?`, [
        keyHash,
    ]);
    return row ? toKey(row) : null;
}
/** Revoking twice is harmless: the first revocation time stays. Null when the org has no such key. */
export async function revokeApiKey(em, orgId, keyId, now) {
    const [row] = await em.execute(`update api_keys set revoked_at = coalesce(revoked_at, ?) where key_id = ? and org_id = ? returning ${COLUMNS}`, [now, keyId, orgId]);
    return row ? toKey(row) : null;
}
export async function countApiKeys(em) {
    const [{ total }] = await em.execute('select count(*)::int as total from api_keys');
    return total;
}
//# sourceMappingURL=keys.store.js.map