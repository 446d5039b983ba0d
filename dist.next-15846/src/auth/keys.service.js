import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { badRequest, resourceNotFound } from '../errors.js';
import { reportCache } from '../metrics/events.js';
import { ApiKey } from './api-key.entity.js';
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
    const entity = em.create(ApiKey, {
        keyId: generateKeyId(),
        orgId: input.orgId,
        name: input.name ?? null,
        scopes,
        keyHash: hashSecret(key),
        createdAt: new Date(),
        revokedAt: null,
    });
    await em.flush();
    return {
        keyId: entity.keyId,
        key,
        orgId: entity.orgId ?? null,
        name: entity.name ?? null,
        scopes,
        createdAt: entity.createdAt,
    };
}
export const listKeys = (em, orgId) => em.find(ApiKey, { orgId }, { orderBy: { createdAt: 'asc', keyId: 'asc' } });
export async function getKey(em, orgId, keyId) {
    const key = await em.findOne(ApiKey, { keyId, orgId });
    if (!key)
        throw resourceNotFound('API key', { keyId });
    return key;
}
export async function revokeKey(em, orgId, keyId) {
    const key = await getKey(em, orgId, keyId);
    if (!key.revokedAt) {
        key.revokedAt = new Date();
        await em.flush();
    }
    return key;
}
export const countKeys = (em) => em.count(ApiKey, {});
const CACHE_TTL_MS = 10_000;
/**
 * Resolves bearer secrets to principals. Lookups are by hash (the secret never reaches the database)
 * and cached briefly, because every request authenticates. Revocations reach every instance's cache at
 * once through the revocation bus (src/cache/revocations.ts); the TTL bounds staleness only while Redis is
 * down.
 */
export class KeyResolver {
    em;
    cache = new Map();
    bootstrapHash;
    constructor(em, bootstrapAdminKey) {
        this.em = em;
        this.bootstrapHash = bootstrapAdminKey ? hashSecret(bootstrapAdminKey) : null;
    }
    async resolve(secret) {
        const hash = hashSecret(secret);
        if (this.bootstrapHash && digestsEqual(hash, this.bootstrapHash)) {
            return { keyId: 'bootstrap', orgId: null, scopes: ['admin'] };
        }
        const cached = this.cache.get(hash);
        const hit = cached !== undefined && cached.expiresAt > Date.now();
        reportCache('api-keys', hit);
        if (hit)
            return cached.principal;
        const row = await this.em().findOne(ApiKey, { keyHash: hash });
        // The index lookup found the row by hash; the constant-time compare keeps the check itself uniform.
        const principal = row && !row.revokedAt && digestsEqual(row.keyHash, hash)
            ? { keyId: row.keyId, orgId: row.orgId ?? null, scopes: row.scopes }
            : null;
        if (this.cache.size > 10_000)
            this.cache.clear();
        this.cache.set(hash, { principal, expiresAt: Date.now() + CACHE_TTL_MS });
        return principal;
    }
    clear() {
        this.cache.clear();
    }
    evict(keyId) {
        for (const [hash, entry] of this.cache) {
            if (entry.principal?.keyId === keyId)
                this.cache.delete(hash);
        }
    }
}
//# sourceMappingURL=keys.service.js.map