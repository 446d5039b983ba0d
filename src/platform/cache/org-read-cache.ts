import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import { reportCache } from '../metrics/events.js';
import { type Ready, remember, settled } from '../ready.js';
import { channelName } from './invalidation-channel.js';

/** Where an instance announces that an org was written (the message is the org id), under its prefix. */
export const orgInvalidationChannel = (prefix: string) => channelName(prefix, 'org-invalidate');
const libraryChannel = (prefix: string) => channelName(prefix, 'library-invalidate');
const MAX_ENTRIES_PER_ORG = 256;

/**
 * A response body as the route's serializer wrote it, kept as its UTF-8 bytes: a kept string would be encoded
 * again for every response that sends it, which for a body of a few kB costs more than everything else the
 * request does (a body with any character beyond Latin-1 is held by V8 as UTF-16, and encoding it dominates).
 */
export type SerializedBody = Buffer;

/** The bytes of what a route's serializer wrote, to keep and send as they are. */
export const serializedBody = (json: string): SerializedBody => Buffer.from(json, 'utf8');

interface Entry {
  body: SerializedBody;
  /** Epoch ms after which the entry is stale by itself (evidence expiring), or Infinity. */
  validUntil: number;
}

export interface Computed<T> {
  value: T;
  validUntil?: number;
}

/**
 * Serialized responses of an org's hot read routes (its controls, its score), kept until a write to the
 * org invalidates them. Writers invalidate after their transaction commits; a read that began before an
 * invalidation never stores its (possibly older) result, so no stale entry survives a write.
 *
 * With Redis, invalidations are broadcast so that every daemon instance drops its copy: once per org and
 * turn of the event loop, however many writes the turn answered (an ingest batch answers hundreds at once).
 * While this instance is not subscribed it could miss another's broadcast, so it then reads through without
 * caching, and it forgets everything when the subscription comes back.
 *
 * It holds the library revision the same way (see `libraryRevision`): the reports it caches are keyed by it.
 */
export class OrgReadCache {
  private readonly entries = new Map<string, Map<string, Entry>>();
  private readonly generations = new Map<string, number>();
  /** Bumped when every entry is dropped at once. */
  private epoch = 0;
  private subscriber: Redis | null = null;
  private library: { revision: Promise<string>; generation: number } | undefined;
  private libraryGeneration = 0;
  /** Orgs written since the last broadcast went out. */
  private readonly unannounced = new Set<string>();

  private readonly orgChannel: string;
  private readonly libraryChannel: string;

  /** `prefix`: the deployment's (COMPLY_QUEUE_PREFIX), which its channels lie under. */
  constructor(
    private readonly redis: Redis | null = null,
    prefix = 'comply',
  ) {
    this.orgChannel = orgInvalidationChannel(prefix);
    this.libraryChannel = libraryChannel(prefix);
  }

  /** Subscribes to other instances' invalidations in the background; Redis being down delays nothing. */
  start(): void {
    if (!this.redis) return;
    const subscriber = this.redis.duplicate({
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      lazyConnect: false,
    });
    this.subscriber = subscriber;
    subscriber.on('message', (channel, orgId: string) =>
      channel === this.libraryChannel ? this.forgetLibrary() : this.drop(orgId),
    );
    subscriber.on('error', () => {});
    subscriber.on('ready', () => this.clear());
    subscriber.subscribe(this.orgChannel, this.libraryChannel).catch(() => {});
  }

  private usable(): boolean {
    return this.redis === null || this.subscriber?.status === 'ready';
  }

  /** The body at once on a hit; otherwise computed, serialized and kept (see the class comment). */
  get<T>(
    orgId: string,
    key: string,
    compute: () => Promise<Computed<T>>,
    serialize: (value: T) => string,
  ): Ready<SerializedBody> {
    const usable = this.usable();
    const hit = usable ? this.entries.get(orgId)?.get(key) : undefined;
    const fresh = hit !== undefined && hit.validUntil > Date.now();
    reportCache('org-reads', fresh);
    if (fresh) return hit.body;
    return this.fill(orgId, key, usable, compute, serialize);
  }

  private async fill<T>(
    orgId: string,
    key: string,
    usable: boolean,
    compute: () => Promise<Computed<T>>,
    serialize: (value: T) => string,
  ): Promise<SerializedBody> {
    const generation = this.generations.get(orgId) ?? 0;
    const epoch = this.epoch;
    const { value, validUntil = Number.POSITIVE_INFINITY } = await compute();
    const body = serializedBody(serialize(value));
    if (
      usable &&
      this.usable() &&
      epoch === this.epoch &&
      (this.generations.get(orgId) ?? 0) === generation
    ) {
      let org = this.entries.get(orgId);
      if (!org) {
        org = new Map();
        this.entries.set(orgId, org);
      }
      // Keys are few for most routes; evidence and attestation pages make one per record or epoch, so an
      // org holds a bounded number and the oldest goes first.
      if (!org.has(key) && org.size >= MAX_ENTRIES_PER_ORG) org.delete(org.keys().next().value as string);
      org.set(key, { body, validUntil });
    }
    return body;
  }

  private drop(orgId: string): void {
    this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
    this.entries.delete(orgId);
  }

  private clear(): void {
    this.epoch += 1;
    this.entries.clear();
    this.forgetLibrary();
  }

  /**
   * The library revision (imported frameworks and analyst edges), read once and then held until this
   * instance changes the library or another one says it did: every CTE report is keyed by it, and it
   * changes only on an import or an edge. Concurrent callers share one read; a read that was under way
   * when the library changed is not kept. While broadcasts could be missed, every call reads.
   */
  libraryRevision(read: () => Promise<string>): Ready<string> {
    if (!this.usable()) return read();
    const current = this.library;
    if (current?.generation === this.libraryGeneration) return settled(current.revision);
    const held = { revision: remember(read()), generation: this.libraryGeneration };
    this.library = held;
    held.revision.catch(() => {
      if (this.library === held) this.library = undefined;
    });
    return held.revision;
  }

  private forgetLibrary(): void {
    this.libraryGeneration += 1;
    this.library = undefined;
  }

  /** After an import or an edge change has committed. */
  libraryChanged(): void {
    this.forgetLibrary();
    this.redis?.publish(this.libraryChannel, '').catch(() => {});
  }

  /** After a write to the org has committed: drops its entries here at once, and tells the others. */
  invalidate(orgId: string): void {
    this.drop(orgId);
    if (!this.redis) return;
    if (this.unannounced.size === 0) setImmediate(() => this.announce());
    this.unannounced.add(orgId);
  }

  private announce(): void {
    for (const orgId of this.unannounced) {
      // Best effort: a lost broadcast must not fail the write that already committed.
      this.redis?.publish(this.orgChannel, orgId).catch(() => {});
    }
    this.unannounced.clear();
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
  }
}

/**
 * Sends a body serialized earlier by the route's own response serializer, as the bytes it was kept as. When
 * the body is there (a cache hit) it goes out at once and the handler, returning nothing, makes no promise.
 */
export function sendSerialized(reply: FastifyReply, body: Ready<SerializedBody>): Ready<void> {
  if (body instanceof Promise) return body.then((bytes) => sendSerialized(reply, bytes));
  reply.type('application/json; charset=utf-8').send(body);
}
