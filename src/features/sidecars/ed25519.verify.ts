import { type KeyObject, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import type sodiumNative from 'sodium-native';
import type { Ready } from '../../platform/ready.js';

/** A registered public key in the two forms the verifiers take. */
export interface VerifyingKey {
  /** For Node's crypto. */
  key: KeyObject;
  /** The 32 raw bytes, for libsodium. */
  bytes: Buffer;
}

/**
 * True when `signature` (64 bytes) is an Ed25519 signature of `message` by `key`: at once with libsodium,
 * as a promise with Node's crypto.
 */
export type Ed25519Verify = (message: Buffer, signature: Buffer, key: VerifyingKey) => Ready<boolean>;

const SIGNATURE_BYTES = 64;
const PUBLIC_KEY_BYTES = 32;

/**
 * libsodium through sodium-native's prebuilt binaries, or null where none fits the platform (or the
 * package is missing): the daemon then verifies with Node's crypto, which answers the same.
 */
function loadSodium(): typeof sodiumNative | null {
  try {
    return createRequire(import.meta.url)('sodium-native') as typeof sodiumNative;
  } catch {
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
export const ed25519Verifiers: { libsodium: Ed25519Verify | null; node: Ed25519Verify } = {
  // On the calling thread: one verification costs less than handing the work to the libuv pool and back.
  libsodium: sodium
    ? (message, signature, key) =>
        signature.length === SIGNATURE_BYTES &&
        key.bytes.length === PUBLIC_KEY_BYTES &&
        sodium.crypto_sign_verify_detached(signature, message, key.bytes)
    : null,
  // On the libuv pool: OpenSSL takes about twice libsodium's time, and the event loop keeps serving.
  node: (message, signature, key) =>
    new Promise<boolean>((resolve, reject) => {
      verify(null, message, key.key, signature, (error, valid) => (error ? reject(error) : resolve(valid)));
    }),
};

/** The verifier the daemon uses: libsodium where it loads, Node's crypto otherwise. */
export const verifyEd25519: Ed25519Verify = ed25519Verifiers.libsodium ?? ed25519Verifiers.node;
