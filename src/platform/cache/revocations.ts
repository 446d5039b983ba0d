import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import { channelName, listenForInvalidations } from './invalidation-channel.js';

export type Revocation =
  | { kind: 'api-key'; keyId: string }
  | { kind: 'sidecar-key'; orgId: string; keyId: string }
  /** A person signed out, or their membership changed: their cached sessions are read again. */
  | { kind: 'user'; userId: string };

export interface RevocationTargets {
  /** Forget what is cached about one credential. */
  evict(revocation: Revocation): void;
  /** Forget every cached credential: revocations may have been missed while Redis was away. */
  clear(): void;
}

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
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> = Promise.resolve();
  private readonly channel: string;

  /** `prefix`: the deployment's (COMPLY_QUEUE_PREFIX), which its channel lies under. */
  constructor(
    private readonly redis: Redis | null,
    private readonly targets: RevocationTargets,
    prefix = 'comply',
  ) {
    super();
    this.channel = channelName(prefix, 'revoked');
  }

  start(): void {
    if (!this.redis) return;
    const { subscriber, subscribed } = listenForInvalidations(this.redis, this.channel, {
      onMessage: (message) => {
        const revocation = parse(message);
        if (revocation) this.apply(revocation);
      },
      onReconnect: () => this.targets.clear(),
    });
    this.subscriber = subscriber;
    this.subscribed = subscribed;
  }

  /** Resolves once this instance listens for other instances' revocations (at once without Redis). */
  ready(): Promise<void> {
    return this.subscribed;
  }

  /** Applies a revocation that has just committed here, and tells every other instance. */
  async revoked(revocation: Revocation): Promise<void> {
    this.apply(revocation);
    // Best effort: the revocation is committed; an instance that misses this falls back to its cache bound.
    await this.redis?.publish(this.channel, JSON.stringify(revocation)).catch(() => {});
  }

  private apply(revocation: Revocation): void {
    this.targets.evict(revocation);
    this.emit('revocation', revocation);
  }

  close(): void {
    this.subscriber?.disconnect();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    revocations: RevocationBus;
  }
}

function parse(message: string): Revocation | null {
  try {
    const value = JSON.parse(message) as Partial<Record<string, unknown>>;
    if (value.kind === 'api-key' && typeof value.keyId === 'string')
      return { kind: 'api-key', keyId: value.keyId };
    if (value.kind === 'user' && typeof value.userId === 'string')
      return { kind: 'user', userId: value.userId };
    if (value.kind === 'sidecar-key' && typeof value.keyId === 'string' && typeof value.orgId === 'string') {
      return { kind: 'sidecar-key', orgId: value.orgId, keyId: value.keyId };
    }
  } catch {
    // Not ours: ignore.
  }
  return null;
}
