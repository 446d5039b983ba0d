import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { sidecarKeyIdOfRaw } from '../../shared/sidecar-key-id.js';
import { ed25519FromStored, KeyFormatError, parseEd25519PublicKey } from './ed25519.js';
import type { SidecarKeySchema } from './sidecar-keys.schemas.js';

export type SidecarKeyView = Static<typeof SidecarKeySchema>;

interface SidecarKeyRow {
  org_id: string;
  key_id: string;
  name: string | null;
  public_key: string;
  fingerprint: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

const COLUMNS = 'org_id, key_id, name, public_key, fingerprint, created_at, revoked_at';

const toView = (row: SidecarKeyRow): SidecarKeyView => ({
  keyId: row.key_id,
  orgId: row.org_id,
  name: row.name,
  algorithm: 'Ed25519',
  publicKey: ed25519FromStored(row.public_key).pem,
  fingerprint: row.fingerprint,
  createdAt: new Date(row.created_at).toISOString(),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
});

export async function registerSidecarKey(
  em: Em,
  orgId: string,
  input: { publicKey: string; keyId?: string; name?: string },
): Promise<SidecarKeyView> {
  let parsed: ReturnType<typeof parseEd25519PublicKey>;
  try {
    parsed = parseEd25519PublicKey(input.publicKey);
  } catch (error) {
    if (!(error instanceof KeyFormatError)) throw error;
    throw badRequest(error.message, {
      fields: [{ field: 'body.publicKey', message: error.message }],
      reason: 'invalid_public_key',
    });
  }
  const keyId = input.keyId ?? sidecarKeyIdOfRaw(Buffer.from(parsed.raw, 'base64'));
  const [row] = await em.execute<SidecarKeyRow[]>(
    `insert into sidecar_keys (org_id, key_id, name, public_key, fingerprint, created_at)
     values (?, ?, ?, ?, ?, ?) on conflict (org_id, key_id) do nothing returning ${COLUMNS}`,
    [orgId, keyId, input.name ?? null, parsed.raw, parsed.fingerprint, new Date()],
  );
  if (!row) throw conflict('Sidecar key already exists', { keyId });
  return toView(row);
}

export async function listSidecarKeys(em: Em, orgId: string): Promise<SidecarKeyView[]> {
  const rows = await em.execute<SidecarKeyRow[]>(
    `select ${COLUMNS} from sidecar_keys where org_id = ? order by created_at, key_id`,
    [orgId],
  );
  return rows.map(toView);
}

export async function getSidecarKey(em: Em, orgId: string, keyId: string): Promise<SidecarKeyView> {
  const [row] = await em.execute<SidecarKeyRow[]>(
    `select ${COLUMNS} from sidecar_keys where org_id = ? and key_id = ?`,
    [orgId, keyId],
  );
  if (!row) throw resourceNotFound('Sidecar key', { keyId });
  return toView(row);
}

/** Revoking twice is harmless: the first revocation time stays. */
export async function revokeSidecarKey(em: Em, orgId: string, keyId: string): Promise<SidecarKeyView> {
  const [row] = await em.execute<SidecarKeyRow[]>(
    `update sidecar_keys set revoked_at = coalesce(revoked_at, ?)
     where org_id = ? and key_id = ? returning ${COLUMNS}`,
    [new Date(), orgId, keyId],
  );
  if (!row) throw resourceNotFound('Sidecar key', { keyId });
  return toView(row);
}

export async function findSidecarKey(
  em: Em,
  orgId: string,
  keyId: string,
): Promise<{ publicKey: string; revoked: boolean } | null> {
  const [row] = await em.execute<{ public_key: string; revoked: boolean }[]>(
    'select public_key, revoked_at is not null as revoked from sidecar_keys where org_id = ? and key_id = ?',
    [orgId, keyId],
  );
  return row ? { publicKey: row.public_key, revoked: row.revoked } : null;
}
