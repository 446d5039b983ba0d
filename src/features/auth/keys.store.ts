/** API keys: the only module that reads or writes `api_keys`. Only the secret's hash is ever stored. */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';
import type { Scope } from '../../shared/vocabulary.js';

export interface ApiKeyRow {
  keyId: string;
  /** null for platform keys, which act on every org. */
  orgId: string | null;
  name: string | null;
  scopes: Scope[];
  /** SHA-256 of the secret, hex. */
  keyHash: string;
  /** Who issued it: a person's user id or a key's id; null for keys issued before people signed in. */
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
}

const COLUMNS = `key_id as "keyId", org_id as "orgId", name, scopes, key_hash as "keyHash",
  created_by as "createdBy", created_at as "createdAt", revoked_at as "revokedAt"`;

const toKey = (row: ApiKeyRow): ApiKeyRow => ({
  ...row,
  createdAt: toIso(row.createdAt),
  revokedAt: toIsoOrNull(row.revokedAt),
});

export async function insertApiKey(
  em: Em,
  key: {
    keyId: string;
    orgId: string | null;
    name: string | null;
    scopes: Scope[];
    keyHash: string;
    createdBy: string | null;
  },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into api_keys (key_id, org_id, name, scopes, key_hash, created_by, created_at)
     values (?, ?, ?, ?::text[], ?, ?, ?)`,
    [key.keyId, key.orgId, key.name, textArray(key.scopes), key.keyHash, key.createdBy, now],
  );
}

/** The org's keys, oldest first. */
export async function selectApiKeys(em: Em, orgId: string): Promise<ApiKeyRow[]> {
  const rows = await em.execute<ApiKeyRow[]>(
    `select ${COLUMNS} from api_keys where org_id = ? order by created_at, key_id`,
    [orgId],
  );
  return rows.map(toKey);
}

export async function selectApiKey(em: Em, orgId: string, keyId: string): Promise<ApiKeyRow | null> {
  const [row] = await em.execute<ApiKeyRow[]>(
    `select ${COLUMNS} from api_keys where key_id = ? and org_id = ?`,
    [keyId, orgId],
  );
  return row ? toKey(row) : null;
}

/** The key holding this secret hash, revoked or not. */
export async function selectApiKeyByHash(em: Em, keyHash: string): Promise<ApiKeyRow | null> {
  const [row] = await em.execute<ApiKeyRow[]>(`select ${COLUMNS} from api_keys where key_hash = ?`, [
    keyHash,
  ]);
  return row ? toKey(row) : null;
}

/** Revoking twice is harmless: the first revocation time stays. Null when the org has no such key. */
export async function revokeApiKey(
  em: Em,
  orgId: string,
  keyId: string,
  now: Date,
): Promise<ApiKeyRow | null> {
  const [row] = await em.execute<ApiKeyRow[]>(
    `update api_keys set revoked_at = coalesce(revoked_at, ?) where key_id = ? and org_id = ? returning ${COLUMNS}`,
    [now, keyId, orgId],
  );
  return row ? toKey(row) : null;
}

export async function countApiKeys(em: Em): Promise<number> {
  const [{ total }] = await em.execute<{ total: number }[]>('select count(*)::int as total from api_keys');
  return total;
}
