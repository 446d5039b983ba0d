import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { reportCache } from '../../platform/metrics/events.js';
import { remember, settled } from '../../platform/ready.js';
import { ed25519FromStored } from './ed25519.js';
import { findSidecarKey } from './sidecar-keys.service.js';
const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
const cacheKey = (orgId, keyId) => `${orgId}\u0000${keyId}`;
/**
 * Public keys by org and key id, so that verifying a signature costs no query. Concurrent misses share
 * one lookup. Revocations reach every instance at once through the revocation bus
 * (src/platform/cache/revocations.ts); the TTL bounds staleness only while Redis is down. Unknown keys are
 * not cached, so a key registered elsewhere works at once. One per app (and job context): the key routes
 * evict from it, ingestion reads it.
 */
export class SidecarKeyCache {
    db;
    entries = new TtlCache(TTL_MS, MAX_ENTRIES);
    constructor(db) {
        this.db = db;
    }
    /** The key's state: at once when it is cached and looked up already, else once the lookup answers. */
    get(orgId, keyId) {
        const key = cacheKey(orgId, keyId);
        const cached = this.entries.get(key);
        reportCache('sidecar-keys', cached !== undefined);
        if (cached !== undefined)
            return settled(cached);
        const state = remember(findSidecarKey(this.db.em(), orgId, keyId).then((row) => row
            ? {
                key: { key: ed25519FromStored(row.publicKey).key, bytes: Buffer.from(row.publicKey, 'base64') },
                revoked: row.revoked,
            }
            : null));
        this.entries.set(key, state);
        const forget = () => this.entries.deleteIf(key, state);
        state.then((found) => found || forget(), forget);
        return state;
    }
    clear() {
        this.entries.clear();
    }
    evict(orgId, keyId) {
        this.entries.delete(cacheKey(orgId, keyId));
    }
}
//# sourceMappingURL=sidecar-keys.cache.js.map