/** The part of sodium-native (libsodium bindings; the package ships no types) that the daemon uses. */
declare module 'sodium-native' {
  const sodium: {
    crypto_sign_BYTES: number;
    crypto_sign_PUBLICKEYBYTES: number;
    /** True when `signature` is a valid Ed25519 signature of `message` by `publicKey`. */
    crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  };
  export default sodium;
}
