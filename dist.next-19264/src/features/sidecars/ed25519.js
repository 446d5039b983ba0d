import { createHash, createPublicKey } from 'node:crypto';
/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410); the 32 raw key bytes follow it. */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const RAW_KEY_BYTES = 32;
const SIGNATURE_BYTES = 64;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
export class KeyFormatError extends Error {
}
function fromRaw(raw) {
    const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    return {
        key,
        raw: raw.toString('base64'),
        fingerprint: `SHA256:${createHash('sha256').update(raw).digest('base64').replace(/=+$/, '')}`,
        pem: key.export({ format: 'pem', type: 'spki' }).toString(),
    };
}
function decodeBase64(text) {
    const compact = text.replace(/\s+/g, '');
    // Node's base64 decoder reads both the standard and the URL-safe alphabet.
    return BASE64.test(compact) ? Buffer.from(compact, 'base64') : null;
}
/**
 * Accepts an Ed25519 public key as PEM (SPKI) or as the base64 of its 32 raw bytes, and rejects
 * everything else: other algorithms, private keys, wrong lengths.
 */
export function parseEd25519PublicKey(text) {
    const trimmed = text.trim();
    if (trimmed.startsWith('-----BEGIN')) {
        if (/PRIVATE KEY/.test(trimmed)) {
            throw new KeyFormatError('This is a private key; register the public key only');
        }
        let key;
        try {
            key = createPublicKey({ key: trimmed, format: 'pem' });
        }
        catch {
            throw new KeyFormatError('The PEM text is not a readable public key');
        }
        if (key.asymmetricKeyType !== 'ed25519') {
            throw new KeyFormatError(`Expected an Ed25519 key, got ${key.asymmetricKeyType ?? 'an unknown key type'}`);
        }
        const der = key.export({ format: 'der', type: 'spki' });
        return fromRaw(der.subarray(der.length - RAW_KEY_BYTES));
    }
    const raw = decodeBase64(trimmed);
    if (!raw)
        throw new KeyFormatError('Expected a PEM public key or the base64 of 32 raw Ed25519 key bytes');
    if (raw.length !== RAW_KEY_BYTES) {
        throw new KeyFormatError(`A raw Ed25519 public key has ${RAW_KEY_BYTES} bytes, got ${raw.length}`);
    }
    return fromRaw(raw);
}
/** Restores a stored key (base64 of the raw bytes). */
export const ed25519FromStored = (raw) => fromRaw(Buffer.from(raw, 'base64'));
/** A signature as base64 or base64url of its 64 bytes, or null when it cannot be one. */
export function decodeSignature(value) {
    const bytes = decodeBase64(value);
    return bytes && bytes.length === SIGNATURE_BYTES ? bytes : null;
}
//# sourceMappingURL=ed25519.js.map