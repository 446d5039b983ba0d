import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import type { Em } from '../../platform/db/database.js';
import { badRequest, resourceNotFound } from '../../platform/errors.js';
import { reportCache } from '../../platform/metrics/events.js';
import type { Scope } from '../../shared/vocabulary.js';
import {
  type ApiKeyRow,
  countApiKeys,
  insertApiKey,
  revokeApiKey,
  selectApiKey,
  selectApiKeyByHash,
  selectApiKeys,
} from './keys.store.js';
import type { Principal } from './scopes.js';

const KEY_PREFIX = 'cmp_';

/** 256 random bits; the prefix makes leaked keys easy to recognise by secret scanners. */
export const generateSecret = () => `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
export const generateKeyId = () => `key_${randomBytes(9).toString('base64url')}`;
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Compares two hex digests without leaking where they differ. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface CreatedKey {
  keyId: string;
  key: string;
  orgId: string | null;
  name: string | null;
  scopes: Scope[];
  createdAt: Date;
}

export async function createKey(
  em: Em,
  input: { orgId: string | null; scopes: Scope[]; name?: string | null },
): Promise<CreatedKey> {
  const scopes = [...new Set(input.scopes)].sort() as Scope[];
  if (input.orgId !== null && scopes.includes('admin')) {
    throw badRequest('The admin scope is reserved for platform keys', {
      fields: [{ field: 'body.scopes', message: 'must not include admin on an organization key' }],
    });
  }
  const key = generateSecret();
  const created = { keyId: generateKeyId(), orgId: input.orgId, name: input.name ?? null, scopes };
  const createdAt = new Date();
  await insertApiKey(em, { ...created, keyHash: hashSecret(key) }, createdAt);
  return { keyId: created.keyId, key, orgId: created.orgId, name: created.name, scopes, createdAt };
}

export type { ApiKeyRow };

export const listKeys = (em: Em, orgId: string): Promise<ApiKeyRow[]> => selectApiKeys(em, orgId);

export async function getKey(em: Em, orgId: string, keyId: string): Promise<ApiKeyRow> {
  const key = await selectApiKey(em, orgId, keyId);
  if (!key) throw resourceNotFound('API key', { keyId });
  return key;
}

export async function revokeKey(em: Em, orgId: string, keyId: string): Promise<ApiKeyRow> {
  const key = await revokeApiKey(em, orgId, keyId, new Date());
  if (!key) throw resourceNotFound('API key', { keyId });
  return key;
}

export const countKeys = (em: Em): Promise<number> => countApiKeys(em);

const CACHE_TTL_MS = 10_000;
const CACHE_CAPACITY = 10_000;

/**
 * Resolves bearer secrets to principals. Lookups are by hash (the secret never reaches the database)
 * and cached briefly, because every request authenticates: 10 s, and past 10k secrets the least recently
 * used go first. Revocations reach every instance's cache at once through the revocation bus
 * (src/platform/cache/revocations.ts); the TTL bounds staleness only while Redis is down. The cache is
 * keyed by the secret itself, which the process holds anyway while it serves the request: a hit then costs
 * no hash (two microseconds of every request).
 */
export class KeyResolver {
  private readonly cache = new TtlCache<string, Principal | null>(CACHE_TTL_MS, CACHE_CAPACITY);
  private readonly bootstrapSecret: Buffer | null;

  constructor(
    private readonly em: () => Em,
    bootstrapAdminKey: string | null,
  ) {
    this.bootstrapSecret = bootstrapAdminKey ? Buffer.from(bootstrapAdminKey, 'utf8') : null;
  }

  /**
   * The principal when it is known without the database: the platform key (compared in constant time,
   * never cached), or a current cache entry for the secret (null: unknown or revoked). Else undefined.
   */
  known(secret: string): Principal | null | undefined {
    if (this.bootstrapSecret) {
      const given = Buffer.from(secret, 'utf8');
      if (given.length === this.bootstrapSecret.length && timingSafeEqual(given, this.bootstrapSecret)) {
        return { keyId: 'bootstrap', orgId: null, scopes: ['admin'] };
      }
    }
    const principal = this.cache.get(secret);
    reportCache('api-keys', principal !== undefined);
    return principal;
  }

  /** Reads the key from the database by the secret's hash and caches the answer (`known` said nothing). */
  async lookUp(secret: string): Promise<Principal | null> {
    const hash = hashSecret(secret);
    const row = await selectApiKeyByHash(this.em(), hash);
    // The index lookup found the row by hash; the constant-time compare keeps the check itself uniform.
    const principal =
      row && !row.revokedAt && digestsEqual(row.keyHash, hash)
        ? { keyId: row.keyId, orgId: row.orgId, scopes: row.scopes }
        : null;
    this.cache.set(secret, principal);
    return principal;
  }

  clear(): void {
    this.cache.clear();
  }

  evict(keyId: string): void {
    this.cache.deleteWhere((principal) => principal?.keyId === keyId);
  }
}
