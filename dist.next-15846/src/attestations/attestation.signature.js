import { verify } from 'node:crypto';
import { badRequest } from '../errors.js';
import { decodeSignature } from '../sidecars/ed25519.js';
const MESSAGES = {
    missing_signature: 'An L2 attestation must be signed',
    unexpected_signature: 'An L0 attestation is an unsigned self-report and must not carry a signature',
    unsupported_algorithm: 'Only Ed25519 signatures are accepted',
    malformed_signature: 'The signature is not the base64 of 64 bytes',
    unknown_key: 'The signing key is not registered for this organization',
    revoked_key: 'The signing key has been revoked',
    invalid_signature: 'The signature does not match the attestation',
};
const refuse = (reason, keyId) => badRequest(MESSAGES[reason], {
    fields: [{ field: 'body.signature', message: MESSAGES[reason] }],
    reason,
    ...(keyId ? { keyId } : {}),
});
/** Ed25519 verification runs on the libuv pool: the event loop keeps serving while it works. */
const verifyEd25519 = (content, key, signature) => new Promise((resolve, reject) => {
    verify(null, Buffer.from(content), key, signature, (error, valid) => error ? reject(error) : resolve(valid));
});
/**
 * Checks that the level and the signature agree: L0 carries none, L2 carries a valid Ed25519 signature
 * over `content` by a live key registered for the org. Throws 400 with `details.reason` otherwise.
 */
export async function checkSignature(keys, orgId, body, content) {
    const { signature } = body;
    if (body.level === 'L0') {
        if (signature)
            throw refuse('unexpected_signature');
        return;
    }
    if (!signature)
        throw refuse('missing_signature');
    if (signature.alg !== 'Ed25519')
        throw refuse('unsupported_algorithm', signature.keyId);
    const bytes = decodeSignature(signature.value);
    if (!bytes)
        throw refuse('malformed_signature', signature.keyId);
    const key = await keys.get(orgId, signature.keyId);
    if (!key)
        throw refuse('unknown_key', signature.keyId);
    if (key.revoked)
        throw refuse('revoked_key', signature.keyId);
    if (!(await verifyEd25519(content, key.key, bytes)))
        throw refuse('invalid_signature', signature.keyId);
}
//# sourceMappingURL=attestation.signature.js.map