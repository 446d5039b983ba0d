import { listenForInvalidations } from '../../platform/cache/invalidation-channel.js';
import { LruCache } from '../../platform/cache/lru-cache.js';
import { reportCache } from '../../platform/metrics/events.js';
import { remember, settled } from '../../platform/ready.js';
import { selectAiSystemNames } from './ai-systems.store.js';
/** Where an instance announces that an org's AI systems changed (the message is the org id). */
const CHANNEL = 'comply:ai-systems-changed';
/** Bounds how long a change another instance made can go unseen while Redis is away. */
const TTL_MS = 10_000;
const MAX_ORGS = 10_000;
/**
 * The AI systems each org has, by id and by name, so that attestation ingest resolves the system an
 * attestation names without a query per attestation. Concurrent misses share one read. A value the cached
 * inventory does not know is read again before it is called unknown, so a system created on another instance
 * is found at once. The AI-system routes call `changed` after a create, update or delete commits: it drops
 * the org here and, with Redis, on every other instance; when the subscription comes back after Redis was
 * away, everything is dropped, since a change may have been missed. A read under way when the org changed is
 * not kept.
 */
export class AiSystemDirectory {
    db;
    redis;
    entries = new LruCache(MAX_ORGS);
    generations = new Map();
    subscriber = null;
    constructor(db, redis = null) {
        this.db = db;
        this.redis = redis;
    }
    start() {
        if (!this.redis)
            return;
        this.subscriber = listenForInvalidations(this.redis, CHANNEL, {
            onMessage: (orgId) => this.drop(orgId),
            onReconnect: () => this.clear(),
        }).subscriber;
    }
    /**
     * The id of the org's system that `value` names, by its id or its name (ignoring case); null when it
     * names none. At once when the cached inventory knows it.
     */
    resolve(orgId, value) {
        const entry = this.entries.get(orgId);
        const fresh = entry !== undefined && entry.expiresAt > Date.now();
        reportCache('ai-systems', fresh);
        if (fresh) {
            const systems = settled(entry.systems);
            if (!(systems instanceof Promise)) {
                const found = lookup(systems, value);
                if (found !== null)
                    return found;
            }
            return entry.systems.then((loaded) => lookup(loaded, value) ?? this.reload(orgId, value));
        }
        return this.load(orgId).then((loaded) => lookup(loaded, value));
    }
    /** After a create, update or delete of one of the org's systems committed: here, and on the others. */
    changed(orgId) {
        this.drop(orgId);
        // Best effort: the change is committed; an instance that misses this falls back to the TTL.
        this.redis?.publish(CHANNEL, orgId).catch(() => { });
    }
    close() {
        this.subscriber?.disconnect();
    }
    reload(orgId, value) {
        this.drop(orgId);
        return this.load(orgId).then((loaded) => lookup(loaded, value));
    }
    load(orgId) {
        const current = this.entries.peek(orgId);
        if (current !== undefined && current.expiresAt > Date.now())
            return current.systems;
        const generation = this.generations.get(orgId) ?? 0;
        const systems = remember(selectAiSystemNames(this.db.em(), orgId).then((rows) => ({
            ids: new Set(rows.map((row) => row.systemId)),
            byName: new Map(rows.map((row) => [row.name.toLowerCase(), row.systemId])),
        })));
        const entry = { systems, expiresAt: Date.now() + TTL_MS };
        this.entries.set(orgId, entry);
        const forget = () => {
            if (this.entries.peek(orgId) === entry)
                this.entries.delete(orgId);
        };
        // A read that began before a change may hold the old inventory: it answers its callers, but is not kept.
        systems.then(() => {
            if ((this.generations.get(orgId) ?? 0) !== generation)
                forget();
        }, forget);
        return systems;
    }
    drop(orgId) {
        this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
        this.entries.delete(orgId);
    }
    clear() {
        for (const [orgId] of this.entries)
            this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
        this.entries.clear();
    }
}
function lookup(systems, value) {
    if (systems.ids.has(value))
        return value;
    return systems.byName.get(value.toLowerCase()) ?? null;
}
//# sourceMappingURL=ai-systems.directory.js.map