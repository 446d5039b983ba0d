/**
 * A bounded least-recently-used cache (a Map keeps insertion order; a hit moves the key to the end, and the
 * first key is the one to drop). Each entry weighs 1 unless `weigh` says otherwise, so that a cache of lists
 * can be bounded in the items it holds rather than in its keys.
 */
export class LruCache {
    capacity;
    weigh;
    entries = new Map();
    weights = new Map();
    weight = 0;
    constructor(capacity, weigh = () => 1) {
        this.capacity = capacity;
        this.weigh = weigh;
        if (!Number.isInteger(capacity) || capacity < 1)
            throw new Error('LRU capacity must be a positive integer');
    }
    /** The value, now the most recently used. */
    get(key) {
        const value = this.entries.get(key);
        if (value === undefined)
            return undefined;
        this.entries.delete(key);
        this.entries.set(key, value);
        return value;
    }
    /** The value, leaving the order as it is. */
    peek(key) {
        return this.entries.get(key);
    }
    /** Keeps the value as the most recently used, dropping the least recently used past the capacity. */
    set(key, value) {
        this.delete(key);
        const weight = this.weigh(value);
        this.entries.set(key, value);
        this.weights.set(key, weight);
        this.weight += weight;
        while (this.weight > this.capacity)
            this.delete(this.entries.keys().next().value);
    }
    delete(key) {
        if (!this.entries.delete(key))
            return;
        this.weight -= this.weights.get(key) ?? 0;
        this.weights.delete(key);
    }
    clear() {
        this.entries.clear();
        this.weights.clear();
        this.weight = 0;
    }
    /** Every entry, least recently used first (reading does not reorder them). */
    [Symbol.iterator]() {
        return this.entries.entries();
    }
    get size() {
        return this.entries.size;
    }
}
//# sourceMappingURL=lru-cache.js.map