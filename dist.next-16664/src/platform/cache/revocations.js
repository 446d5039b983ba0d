import { EventEmitter } from 'node:events';
import { listenForInvalidations } from './invalidation-channel.js';
const CHANNEL = 'comply:revoked';
/**
 * Revocations of API keys, sidecar keys and people's sessions reach every daemon instance at once: the instance that revokes
 * evicts its own caches and publishes the revocation over Redis; every other instance evicts on receipt.
 * When the subscription comes back after Redis was away, every cached credential is dropped, since a
 * revocation may have been missed. The caches' own bound (10 s) only matters while Redis is down, or
 * without Redis with several instances (which the README advises against).
 *
 * Emits `revocation` for each revocation applied here, local or received (operators' logs, tests).
 */
export class RevocationBus extends EventEmitter {
    redis;
    targets;
    subscriber = null;
    subscribed = Promise.resolve();
    constructor(redis, targets) {
        super();
        this.redis = redis;
        this.targets = targets;
    }
    start() {
        if (!this.redis)
            return;
        const { subscriber, subscribed } = listenForInvalidations(this.redis, CHANNEL, {
            onMessage: (message) => {
                const revocation = parse(message);
                if (revocation)
                    this.apply(revocation);
            },
            onReconnect: () => this.targets.clear(),
        });
        this.subscriber = subscriber;
        this.subscribed = subscribed;
    }
    /** Resolves once this instance listens for other instances' revocations (at once without Redis). */
    ready() {
        return this.subscribed;
    }
    /** Applies a revocation that has just committed here, and tells every other instance. */
    async revoked(revocation) {
        this.apply(revocation);
        // Best effort: the revocation is committed; an instance that misses this falls back to its cache bound.
        await this.redis?.publish(CHANNEL, JSON.stringify(revocation)).catch(() => { });
    }
    apply(revocation) {
        this.targets.evict(revocation);
        this.emit('revocation', revocation);
    }
    close() {
        this.subscriber?.disconnect();
    }
}
function parse(message) {
    try {
        const value = JSON.parse(message);
        if (value.kind === 'api-key' && typeof value.keyId === 'string')
            return { kind: 'api-key', keyId: value.keyId };
        if (value.kind === 'user' && typeof value.userId === 'string')
            return { kind: 'user', userId: value.userId };
        if (value.kind === 'sidecar-key' && typeof value.keyId === 'string' && typeof value.orgId === 'string') {
            return { kind: 'sidecar-key', orgId: value.orgId, keyId: value.keyId };
        }
    }
    catch {
        // Not ours: ignore.
    }
    return null;
}
//# sourceMappingURL=revocations.js.map