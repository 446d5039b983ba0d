import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { badRequest, resourceNotFound } from '../../platform/errors.js';
import { reportCache } from '../../platform/metrics/events.js';
import { countApiKeys, insertApiKey, revokeApiKey, selectApiKey, selectApiKeyByHash, selectApiKeys, } from './keys.store.js';
const KEY_PREFIX = 'cmp_';
/** 256 random bits; the prefix makes leaked keys easy to recognise by secret scanners. */
export const generateSecret = () => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
export const generateKeyId = () => `key_${randomBytes(9).toString('base64url')}`;
export const hashSecret = (secret) => createHash('sha256').update(secret).digest('hex');
/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a, b) {
    const left = Buffer.from(a, 'hex');
    const right = Buffer.from(b, 'hex');
    return left.length === right.length && timingSafeEqual(left, right);
}
export async function createKey(em, input) {
    const scopes = [...new Set(input.scopes)].sort();
    if (input.orgId !== null && scopes.includes('admin')) {
        throw badRequest('The admin scope is reserved for platform keys', {
            fields: [{ field: 'body.scopes', message: 'must not include admin on an organization key' }],
        });
    }
    const key = generateSecret();
    const created = { keyId: generateKeyId(), orgId: input.orgId, name: input.name ?? null, scopes };
    const createdAt = new Date();
    await insertApiKey(em, { ...created, keyHash: hashSecret(key), createdBy: input.createdBy ?? null }, createdAt);
    return { keyId: created.keyId, key, orgId: created.orgId, name: created.name, scopes, createdAt };
}
export const listKeys = (em, orgId) => selectApiKeys(em, orgId);
export async function getKey(em, orgId, keyId) {
    const key = await selectApiKey(em, orgId, keyId);
    if (!key)
        throw resourceNotFound('API key', { keyId });
    return key;
}
export async function revokeKey(em, orgId, keyId) {
    const key = await revokeApiKey(em, orgId, keyId, new Date());
    if (!key)
        throw resourceNotFound('API key', { keyId });
    return key;
}
export const countKeys = (em) => countApiKeys(em);
const CACHE_TTL_MS = 10_000;
/** The key of `COMPLY_ADMIN_KEY`: a platform key that has no row. */
const BOOTSTRAP_PRINCIPAL = {
    actor: { type: 'key', id: 'bootstrap', name: 'platform key (COMPLY_ADMIN_KEY)' },
    orgId: null,
    platform: true,
    permissions: ['admin'],
};
const CACHE_CAPACITY = { keys: 10_000, refusals: 1_000 };
/**
 * Resolves bearer secrets to principals. Lookups are by hash (the secret never reaches the database)
 * and cached briefly, because every request authenticates: 10 s, and past the capacity the least recently
 * used go first. Secrets that resolved to no key are cached apart, in a smaller cache: a flood of unknown
 * secrets then evicts only other unknown ones, never a valid key. Revocations reach every instance's cache at
 * once through the revocation bus (src/platform/cache/revocations.ts); the TTL bounds staleness only while
 * Redis is down. The caches are keyed by the secret itself, which the process holds anyway while it serves
 * the request: a hit then costs no hash (two microseconds of every request).
 */
export class KeyResolver {
    em;
    keys;
    refusals;
    bootstrapSecret;
    constructor(em, bootstrapAdminKey, capacity = CACHE_CAPACITY) {
        this.em = em;
        this.bootstrapSecret = bootstrapAdminKey ? Buffer.from(bootstrapAdminKey, 'utf8') : null;
        this.keys = new TtlCache(CACHE_TTL_MS, capacity.keys);
        this.refusals = new TtlCache(CACHE_TTL_MS, capacity.refusals);
    }
    /**
     * The principal when it is known without the database: the platform key (compared in constant time,
     * never cached), or a current cache entry for the secret (null: unknown or revoked). Else undefined.
     */
    known(secret) {
        if (this.bootstrapSecret) {
            const given = Buffer.from(secret, 'utf8');
            if (given.length === this.bootstrapSecret.length && timingSafeEqual(given, this.bootstrapSecret)) {
                return BOOTSTRAP_PRINCIPAL;
            }
        }
        const principal = this.keys.get(secret) ?? this.refusals.get(secret);
        reportCache('api-keys', principal !== undefined);
        return principal;
    }
    /** Reads the key from the database by the secret's hash and caches the answer (`known` said nothing). */
    async lookUp(secret) {
        const hash = hashSecret(secret);
        const row = await selectApiKeyByHash(this.em(), hash);
        // The index lookup found the row by hash; the constant-time compare keeps the check itself uniform.
        if (row && !row.revokedAt && digestsEqual(row.keyHash, hash)) {
            const principal = {
                actor: { type: 'key', id: row.keyId, name: row.name ?? row.keyId },
                orgId: row.orgId,
                platform: row.orgId === null,
                permissions: row.scopes,
            };
            this.refusals.delete(secret);
            this.keys.set(secret, principal);
            return principal;
        }
        this.keys.delete(secret);
        this.refusals.set(secret, null);
        return null;
    }
    clear() {
        this.keys.clear();
        this.refusals.clear();
    }
    evict(keyId) {
        this.keys.deleteWhere((principal) => principal.actor.id === keyId);
    }
}
//# sourceMappingURL=keys.service.js.map