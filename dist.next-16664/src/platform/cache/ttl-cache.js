import { LruCache } from './lru-cache.js';
/**
 * Values kept for a fixed time after they were set, at most `capacity` of them: past the capacity the least
 * recently used goes first, so a burst of new keys never drops the hot ones all at once.
 */
export class TtlCache {
    ttlMs;
    entries;
    constructor(ttlMs, capacity) {
        this.ttlMs = ttlMs;
        this.entries = new LruCache(capacity);
    }
    /** The value while it is fresh; an expired one is dropped. */
    get(key) {
        const entry = this.entries.get(key);
        if (entry === undefined)
            return undefined;
        if (entry.expiresAt > Date.now())
            return entry.value;
        this.entries.delete(key);
        return undefined;
    }
    set(key, value) {
        this.entries.set(key, { value, expiresAt: Date.now() + this.ttlMs });
    }
    /** Drops the key only while it still holds `value` (a later `set` of the key is kept). */
    deleteIf(key, value) {
        if (this.entries.peek(key)?.value === value)
            this.entries.delete(key);
    }
    delete(key) {
        this.entries.delete(key);
    }
    /** Drops every entry whose value matches. */
    deleteWhere(matches) {
        for (const [key, entry] of [...this.entries])
            if (matches(entry.value))
                this.entries.delete(key);
    }
    clear() {
        this.entries.clear();
    }
    get size() {
        return this.entries.size;
    }
}
//# sourceMappingURL=ttl-cache.js.map