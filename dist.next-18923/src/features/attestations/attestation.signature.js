import { badRequest } from '../../platform/errors.js';
import { whenReady } from '../../platform/ready.js';
import { decodeSignature } from '../sidecars/ed25519.js';
import { verifyEd25519 } from '../sidecars/ed25519.verify.js';
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
/**
 * Checks that the level and the signature agree: L0 carries none, L2 carries a valid Ed25519 signature
 * over `content` by a live key registered for the org. Throws 400 with `details.reason` otherwise (or
 * rejects, when the key or the check had to be waited for). With the key cached, it answers at once.
 */
export function checkSignature(keys, orgId, body, content) {
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
    return whenReady(keys.get(orgId, signature.keyId), (key) => {
        if (!key)
            throw refuse('unknown_key', signature.keyId);
        if (key.revoked)
            throw refuse('revoked_key', signature.keyId);
        return whenReady(verifyEd25519(Buffer.from(content), bytes, key.key), (valid) => {
            if (!valid)
                throw refuse('invalid_signature', signature.keyId);
        });
    });
}
//# sourceMappingURL=attestation.signature.js.map