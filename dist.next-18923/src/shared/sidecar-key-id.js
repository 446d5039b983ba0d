import { createHash, createPublicKey } from 'node:crypto';
/**
 * The default id of a sidecar key, derived from the key itself, so that a sidecar holding only its
 * private key knows the id it was registered under: `sk-` and 24 hex digits of the SHA-256 of the raw
 * public key. Imports nothing from the server: the sidecar client uses it too.
 */
export const sidecarKeyIdOfRaw = (rawPublicKey) => `sk-${createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 24)}`;
/** The same id from either half of an Ed25519 key pair. */
export function sidecarKeyIdOf(key) {
    const der = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'der', type: 'spki' });
    return sidecarKeyIdOfRaw(der.subarray(der.length - 32));
}
//# sourceMappingURL=sidecar-key-id.js.map