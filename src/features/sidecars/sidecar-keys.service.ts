import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { sidecarKeyIdOfRaw } from '../../shared/sidecar-key-id.js';
import { ed25519FromStored, KeyFormatError, parseEd25519PublicKey } from './ed25519.js';
import type { SidecarKeySchema } from './sidecar-keys.schemas.js';
import {
  insertSidecarKey,
  revokeSidecarKeyRow,
  type SidecarKeyRow,
  selectSidecarKey,
  selectSidecarKeys,
  selectVerificationKey,
} from './sidecar-keys.store.js';

export type SidecarKeyView = Static<typeof SidecarKeySchema>;

const toView = (row: SidecarKeyRow): SidecarKeyView => ({
  keyId: row.keyId,
  orgId: row.orgId,
  name: row.name,
  algorithm: 'Ed25519',
  publicKey: ed25519FromStored(row.publicKey).pem,
  fingerprint: row.fingerprint,
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
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
  const row = await insertSidecarKey(
    em,
    { orgId, keyId, name: input.name ?? null, publicKey: parsed.raw, fingerprint: parsed.fingerprint },
    new Date(),
  );
  if (!row) throw conflict('Sidecar key already exists', { keyId });
  return toView(row);
}

export async function listSidecarKeys(em: Em, orgId: string): Promise<SidecarKeyView[]> {
  return (await selectSidecarKeys(em, orgId)).map(toView);
}

export async function getSidecarKey(em: Em, orgId: string, keyId: string): Promise<SidecarKeyView> {
  const row = await selectSidecarKey(em, orgId, keyId);
  if (!row) throw resourceNotFound('Sidecar key', { keyId });
  return toView(row);
}

/** Revoking twice is harmless: the first revocation time stays. */
export async function revokeSidecarKey(em: Em, orgId: string, keyId: string): Promise<SidecarKeyView> {
  const row = await revokeSidecarKeyRow(em, orgId, keyId, new Date());
  if (!row) throw resourceNotFound('Sidecar key', { keyId });
  return toView(row);
}

export async function findSidecarKey(
  em: Em,
  orgId: string,
  keyId: string,
): Promise<{ publicKey: string; revoked: boolean } | null> {
  return selectVerificationKey(em, orgId, keyId);
}
