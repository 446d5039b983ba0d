/** Sidecar signing keys: the only module that reads or writes `sidecar_keys`. */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';

export interface SidecarKeyRow {
  orgId: string;
  keyId: string;
  name: string | null;
  /** The raw Ed25519 public key, base64. */
  publicKey: string;
  fingerprint: string;
  createdAt: string;
  revokedAt: string | null;
}

const COLUMNS = `org_id as "orgId", key_id as "keyId", name, public_key as "publicKey", fingerprint,
  created_at as "createdAt", revoked_at as "revokedAt"`;

const toKey = (row: SidecarKeyRow): SidecarKeyRow => ({
  ...row,
  createdAt: toIso(row.createdAt),
  revokedAt: toIsoOrNull(row.revokedAt),
});

/** The new key, or null when the org has a key of that id already. */
export async function insertSidecarKey(
  em: Em,
  key: { orgId: string; keyId: string; name: string | null; publicKey: string; fingerprint: string },
  now: Date,
): Promise<SidecarKeyRow | null> {
  const [row] = await em.execute<SidecarKeyRow[]>(
    `insert into sidecar_keys (org_id, key_id, name, public_key, fingerprint, created_at)
     values (?, ?, ?, ?, ?, ?) on conflict (org_id, key_id) do nothing returning ${COLUMNS}`,
    [key.orgId, key.keyId, key.name, key.publicKey, key.fingerprint, now],
  );
  return row ? toKey(row) : null;
}

/** The org's keys, oldest first. */
export async function selectSidecarKeys(em: Em, orgId: string): Promise<SidecarKeyRow[]> {
  const rows = await em.execute<SidecarKeyRow[]>(
    `select ${COLUMNS} from sidecar_keys where org_id = ? order by created_at, key_id`,
    [orgId],
  );
  return rows.map(toKey);
}

export async function selectSidecarKey(em: Em, orgId: string, keyId: string): Promise<SidecarKeyRow | null> {
  const [row] = await em.execute<SidecarKeyRow[]>(
    `select ${COLUMNS} from sidecar_keys where org_id = ? and key_id = ?`,
    [orgId, keyId],
  );
  return row ? toKey(row) : null;
}

/** Revoking twice is harmless: the first revocation time stays. Null when there is no such key. */
export async function revokeSidecarKeyRow(
  em: Em,
  orgId: string,
  keyId: string,
  now: Date,
): Promise<SidecarKeyRow | null> {
  const [row] = await em.execute<SidecarKeyRow[]>(
    `update sidecar_keys set revoked_at = coalesce(revoked_at, ?)
     where org_id = ? and key_id = ? returning ${COLUMNS}`,
    [now, orgId, keyId],
  );
  return row ? toKey(row) : null;
}

/** What signature checks need of a key: its raw public key and whether it is revoked. */
export async function selectVerificationKey(
  em: Em,
  orgId: string,
  keyId: string,
): Promise<{ publicKey: string; revoked: boolean } | null> {
  const [row] = await em.execute<{ publicKey: string; revoked: boolean }[]>(
    `select public_key as "publicKey", revoked_at is not null as revoked from sidecar_keys
     where org_id = ? and key_id = ?`,
    [orgId, keyId],
  );
  return row ?? null;
}
