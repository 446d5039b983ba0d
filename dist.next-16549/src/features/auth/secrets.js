import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
/** A one-time secret (session, invitation): 256 random bits; only its SHA-256 is stored. */
export const generateToken = () => randomBytes(32).toString('base64url');
export const tokenHash = (token) => createHash('sha256').update(token).digest('hex');
export const generateUserId = () => `usr_${randomBytes(9).toString('base64url')}`;
/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): about 20 ms a password here, memory-hard
 * so that a stolen table is expensive to guess at on GPUs.
 */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
export const hashPassword = (password) => hash(password, ARGON2);
/**
 * Checks a password against its hash. Without a hash (an unknown email, a person who signs in by SSO only) a
 * fixed hash is checked instead, so both answers take the same time and an email's existence does not show.
 */
export async function passwordMatches(passwordHash, password) {
    const stored = passwordHash ?? (await decoyHash());
    const matches = await verify(stored, password).catch(() => false);
    return passwordHash !== null && matches;
}
let decoy;
const decoyHash = () => {
    // A constant of the process, not state: the same hash whoever asks, computed once.
    decoy ??= hash(randomBytes(16).toString('hex'), ARGON2);
    return decoy;
};
//# sourceMappingURL=secrets.js.map