import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { sidecarKeyIdOfRaw } from '../../shared/sidecar-key-id.js';
import { ed25519FromStored, KeyFormatError, parseEd25519PublicKey } from './ed25519.js';
import { insertSidecarKey, revokeSidecarKeyRow, selectSidecarKey, selectSidecarKeys, selectVerificationKey, } from './sidecar-keys.store.js';
const toView = (row) => ({
    keyId: row.keyId,
    orgId: row.orgId,
    name: row.name,
    algorithm: 'Ed25519',
    publicKey: ed25519FromStored(row.publicKey).pem,
    fingerprint: row.fingerprint,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
});
export async function registerSidecarKey(em, orgId, input) {
    let parsed;
    try {
        parsed = parseEd25519PublicKey(input.publicKey);
    }
    catch (error) {
        if (!(error instanceof KeyFormatError))
            throw error;
        throw badRequest(error.message, {
            fields: [{ field: 'body.publicKey', message: error.message }],
            reason: 'invalid_public_key',
        });
    }
    const keyId = input.keyId ?? sidecarKeyIdOfRaw(Buffer.from(parsed.raw, 'base64'));
    const row = await insertSidecarKey(em, { orgId, keyId, name: input.name ?? null, publicKey: parsed.raw, fingerprint: parsed.fingerprint }, new Date());
    if (!row)
        throw conflict('Sidecar key already exists', { keyId });
    return toView(row);
}
export async function listSidecarKeys(em, orgId) {
    return (await selectSidecarKeys(em, orgId)).map(toView);
}
export async function getSidecarKey(em, orgId, keyId) {
    const row = await selectSidecarKey(em, orgId, keyId);
    if (!row)
        throw resourceNotFound('Sidecar key', { keyId });
    return toView(row);
}
/** Revoking twice is harmless: the first revocation time stays. */
export async function revokeSidecarKey(em, orgId, keyId) {
    const row = await revokeSidecarKeyRow(em, orgId, keyId, new Date());
    if (!row)
        throw resourceNotFound('Sidecar key', { keyId });
    return toView(row);
}
export async function findSidecarKey(em, orgId, keyId) {
    return selectVerificationKey(em, orgId, keyId);
}
//# sourceMappingURL=sidecar-keys.service.js.map