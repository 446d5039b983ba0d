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
  input: { orgId: string | null; scopes: Scope[]; name?: string | null; createdBy?: string | null },
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
  await insertApiKey(
    em,
    { ...created, keyHash: hashSecret(key), createdBy: input.createdBy ?? null },
    createdAt,
  );
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
/**
 * How long a credential that resolved stays vouched for: looked up even from an address past its limit of
 * refused authentications (features/auth/auth-failures.ts), so that a client sharing an address with a flood
 * of bad keys keeps working once its 10 s cache entry runs out. Vouching lets a credential be looked up, never
 * accepted without the database; a failed lookup or a revocation ends it.
 */
export const VOUCHED_TTL_MS = 60 * 60_000;

/** The key of `COMPLY_ADMIN_KEY`: a platform key that has no row. */
const BOOTSTRAP_PRINCIPAL: Principal = {
  actor: { type: 'key', id: 'bootstrap', name: 'platform key (COMPLY_ADMIN_KEY)' },
  orgId: null,
  platform: true,
  permissions: ['admin'],
};

/** How many secrets each cache keeps: the keys that resolved, and the secrets that did not. */
export interface KeyCacheCapacity {
  keys: number;
  refusals: number;
}

const CACHE_CAPACITY: KeyCacheCapacity = { keys: 10_000, refusals: 1_000 };

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
  private readonly keys: TtlCache<string, Principal>;
  private readonly refusals: TtlCache<string, null>;
  /** Hashes of secrets that resolved within VOUCHED_TTL_MS, to their key ids (not the secrets: kept an hour). */
  private readonly vouched: TtlCache<string, string>;
  private readonly bootstrapSecret: Buffer | null;

  constructor(
    private readonly em: () => Em,
    bootstrapAdminKey: string | null,
    capacity: KeyCacheCapacity = CACHE_CAPACITY,
  ) {
    this.bootstrapSecret = bootstrapAdminKey ? Buffer.from(bootstrapAdminKey, 'utf8') : null;
    this.keys = new TtlCache(CACHE_TTL_MS, capacity.keys);
    this.refusals = new TtlCache(CACHE_TTL_MS, capacity.refusals);
    this.vouched = new TtlCache(VOUCHED_TTL_MS, capacity.keys);
  }

  /**
   * The principal when it is known without the database: the platform key (compared in constant time,
   * never cached), or a current cache entry for the secret (null: unknown or revoked). Else undefined.
   */
  known(secret: string): Principal | null | undefined {
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
  async lookUp(secret: string): Promise<Principal | null> {
    const hash = hashSecret(secret);
    const row = await selectApiKeyByHash(this.em(), hash);
    // The index lookup found the row by hash; the constant-time compare keeps the check itself uniform.
    if (row && !row.revokedAt && digestsEqual(row.keyHash, hash)) {
      const principal: Principal = {
        actor: { type: 'key', id: row.keyId, name: row.name ?? row.keyId },
        orgId: row.orgId,
        platform: row.orgId === null,
        permissions: row.scopes,
      };
      this.refusals.delete(secret);
      this.keys.set(secret, principal);
      this.vouched.set(hash, row.keyId);
      return principal;
    }
    this.keys.delete(secret);
    this.refusals.set(secret, null);
    this.vouched.delete(hash);
    return null;
  }

  /** Whether the secret resolved to a key lately (VOUCHED_TTL_MS): asked only of addresses past their limit. */
  vouchedFor(secret: string): boolean {
    return this.vouched.get(hashSecret(secret)) !== undefined;
  }

  clear(): void {
    this.keys.clear();
    this.refusals.clear();
  }

  evict(keyId: string): void {
    this.keys.deleteWhere((principal) => principal.actor.id === keyId);
    this.vouched.deleteWhere((vouchedId) => vouchedId === keyId);
  }
}
