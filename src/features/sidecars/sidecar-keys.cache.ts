import type { Database } from '../../platform/db/database.js';
import { reportCache } from '../../platform/metrics/events.js';
import { type Ready, remember, settled } from '../../platform/ready.js';
import { ed25519FromStored } from './ed25519.js';
import type { VerifyingKey } from './ed25519.verify.js';
import { findSidecarKey } from './sidecar-keys.service.js';

export interface SidecarKeyState {
  key: VerifyingKey;
  revoked: boolean;
}

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

/**
 * Public keys by org and key id, so that verifying a signature costs no query. Concurrent misses share
 * one lookup. Revocations reach every instance at once through the revocation bus
 * (src/cache/revocations.ts); the TTL bounds staleness only while Redis is down. Unknown keys are not
 * cached, so a key registered elsewhere works at once.
 */
export class SidecarKeyCache {
  private readonly entries = new Map<string, { state: Promise<SidecarKeyState | null>; expiresAt: number }>();

  constructor(private readonly db: Database) {}

  /** The key's state: at once when it is cached and looked up already, else once the lookup answers. */
  get(orgId: string, keyId: string): Ready<SidecarKeyState | null> {
    const cacheKey = `${orgId}\u0000${keyId}`;
    const cached = this.entries.get(cacheKey);
    const hit = cached !== undefined && cached.expiresAt > Date.now();
    reportCache('sidecar-keys', hit);
    if (hit) return settled(cached.state);
    const state = remember(
      findSidecarKey(this.db.em(), orgId, keyId).then((row) =>
        row
          ? {
              key: { key: ed25519FromStored(row.publicKey).key, bytes: Buffer.from(row.publicKey, 'base64') },
              revoked: row.revoked,
            }
          : null,
      ),
    );
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const entry = { state, expiresAt: Date.now() + TTL_MS };
    this.entries.set(cacheKey, entry);
    const forget = () => {
      if (this.entries.get(cacheKey) === entry) this.entries.delete(cacheKey);
    };
    state.then((found) => found || forget(), forget);
    return state;
  }

  clear(): void {
    this.entries.clear();
  }

  evict(orgId: string, keyId: string): void {
    this.entries.delete(`${orgId}\u0000${keyId}`);
  }
}

const caches = new WeakMap<Database, SidecarKeyCache>();

/** One cache per database, shared by the key routes (which evict) and ingestion (which reads). */
export function sidecarKeyCache(db: Database): SidecarKeyCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new SidecarKeyCache(db);
    caches.set(db, cache);
  }
  return cache;
}
