import { reportCache } from '../metrics/events.js';
const CHANNEL = 'comply:org-invalidate';
/**
 * Serialized responses of an org's hot read routes (its controls, its score), kept until a write to the
 * org invalidates them. Writers invalidate after their transaction commits; a read that began before an
 * invalidation never stores its (possibly older) result, so no stale entry survives a write.
 *
 * With Redis, invalidations are broadcast so that every daemon instance drops its copy. While this
 * instance is not subscribed it could miss another's broadcast, so it then reads through without caching,
 * and it forgets everything when the subscription comes back.
 */
export class OrgReadCache {
    redis;
    entries = new Map();
    generations = new Map();
    /** Bumped when every entry is dropped at once. */
    epoch = 0;
    subscriber = null;
    constructor(redis = null) {
        this.redis = redis;
    }
    /** Subscribes to other instances' invalidations in the background; Redis being down delays nothing. */
    start() {
        if (!this.redis)
            return;
        const subscriber = this.redis.duplicate({
            enableOfflineQueue: true,
            maxRetriesPerRequest: null,
            lazyConnect: false,
        });
        this.subscriber = subscriber;
        subscriber.on('message', (_channel, orgId) => this.drop(orgId));
        subscriber.on('error', () => { });
        subscriber.on('ready', () => this.clear());
        subscriber.subscribe(CHANNEL).catch(() => { });
    }
    usable() {
        return this.redis === null || this.subscriber?.status === 'ready';
    }
    async get(orgId, key, compute, serialize) {
        const usable = this.usable();
        const hit = usable ? this.entries.get(orgId)?.get(key) : undefined;
        const fresh = hit !== undefined && hit.validUntil > Date.now();
        reportCache('org-reads', fresh);
        if (fresh)
            return hit.body;
        const generation = this.generations.get(orgId) ?? 0;
        const epoch = this.epoch;
        const { value, validUntil = Number.POSITIVE_INFINITY } = await compute();
        const body = serialize(value);
        if (usable &&
            this.usable() &&
            epoch === this.epoch &&
            (this.generations.get(orgId) ?? 0) === generation) {
            let org = this.entries.get(orgId);
            if (!org) {
                org = new Map();
                this.entries.set(orgId, org);
            }
            org.set(key, { body, validUntil });
        }
        return body;
    }
    drop(orgId) {
        this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
        this.entries.delete(orgId);
    }
    clear() {
        this.epoch += 1;
        this.entries.clear();
    }
    invalidate(orgId) {
        this.drop(orgId);
        // Best effort: a lost broadcast must not fail the write that already committed.
        this.redis?.publish(CHANNEL, orgId).catch(() => { });
    }
    async close() {
        this.subscriber?.disconnect();
    }
}
/** Sends a body serialized earlier by the route's own response serializer; strings go out as they are. */
export function sendSerialized(reply, body) {
    return reply.type('application/json; charset=utf-8').send(body);
}
//# sourceMappingURL=org-read-cache.js.map