/** A small least-recently-used cache (Map keeps insertion order; a hit moves the key to the end). */
export class LruCache {
    capacity;
    entries = new Map();
    constructor(capacity) {
        this.capacity = capacity;
        if (!Number.isInteger(capacity) || capacity < 1)
            throw new Error('LRU capacity must be a positive integer');
    }
    get(key) {
        const value = this.entries.get(key);
        if (value === undefined)
            return undefined;
        this.entries.delete(key);
        this.entries.set(key, value);
        return value;
    }
    set(key, value) {
        this.entries.delete(key);
        this.entries.set(key, value);
        if (this.entries.size > this.capacity)
            this.entries.delete(this.entries.keys().next().value);
    }
    get size() {
        return this.entries.size;
    }
}
//# sourceMappingURL=lru-cache.js.map