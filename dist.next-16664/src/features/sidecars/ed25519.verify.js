import { verify } from 'node:crypto';
import { createRequire } from 'node:module';
const SIGNATURE_BYTES = 64;
const PUBLIC_KEY_BYTES = 32;
/**
 * libsodium through sodium-native's prebuilt binaries, or null where none fits the platform (or the
 * package is missing): the daemon then verifies with Node's crypto, which answers the same.
 */
function loadSodium() {
    try {
        return createRequire(import.meta.url)('sodium-native');
    }
    catch {
        return null;
    }
}
const sodium = loadSodium();
/**
 * Both implementations refuse what RFC 8032 refuses, including a non-canonical `S` (S ≥ L), so a
 * signature is accepted or refused alike by either. libsodium is stricter only for small-order points
 * (a public key or `R` of order ≤ 8, which no key pair generated as RFC 8032 says has): it refuses
 * those, where OpenSSL checks the equation alone.
 */
export const ed25519Verifiers = {
    // On the calling thread: one verification costs less than handing the work to the libuv pool and back.
    libsodium: sodium
        ? (message, signature, key) => signature.length === SIGNATURE_BYTES &&
            key.bytes.length === PUBLIC_KEY_BYTES &&
            sodium.crypto_sign_verify_detached(signature, message, key.bytes)
        : null,
    // On the libuv pool: OpenSSL takes about twice libsodium's time, and the event loop keeps serving.
    node: (message, signature, key) => new Promise((resolve, reject) => {
        verify(null, message, key.key, signature, (error, valid) => (error ? reject(error) : resolve(valid)));
    }),
};
/** The verifier the daemon uses: libsodium where it loads, Node's crypto otherwise. */
export const verifyEd25519 = ed25519Verifiers.libsodium ?? ed25519Verifiers.node;
//# sourceMappingURL=ed25519.verify.js.map