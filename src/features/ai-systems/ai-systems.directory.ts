import type { Redis } from 'ioredis';
import { channelName, listenForInvalidations } from '../../platform/cache/invalidation-channel.js';
import { LruCache } from '../../platform/cache/lru-cache.js';
import type { Database } from '../../platform/db/database.js';
import { reportCache } from '../../platform/metrics/events.js';
import { type Ready, remember, settled } from '../../platform/ready.js';
import { selectAiSystemNames } from './ai-systems.store.js';

/** Bounds how long a change another instance made can go unseen while Redis is away. */
const TTL_MS = 10_000;
const MAX_ORGS = 10_000;

/** An org's systems: by id, and by name in lower case (names are unique in the org, ignoring case). */
interface OrgSystems {
  ids: Set<string>;
  byName: Map<string, string>;
}

interface Entry {
  systems: Promise<OrgSystems>;
  expiresAt: number;
}

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
  private readonly entries = new LruCache<string, Entry>(MAX_ORGS);
  private readonly generations = new Map<string, number>();
  private subscriber: Redis | null = null;
  /** Where an instance announces that an org's AI systems changed (the message is the org id). */
  private readonly channel: string;

  /** `prefix`: the deployment's (COMPLY_QUEUE_PREFIX), which its channel lies under. */
  constructor(
    private readonly db: Database,
    private readonly redis: Redis | null = null,
    prefix = 'comply',
  ) {
    this.channel = channelName(prefix, 'ai-systems-changed');
  }

  start(): void {
    if (!this.redis) return;
    this.subscriber = listenForInvalidations(this.redis, this.channel, {
      onMessage: (orgId) => this.drop(orgId),
      onReconnect: () => this.clear(),
    }).subscriber;
  }

  /**
   * The id of the org's system that `value` names, by its id or its name (ignoring case); null when it
   * names none. At once when the cached inventory knows it.
   */
  resolve(orgId: string, value: string): Ready<string | null> {
    const entry = this.entries.get(orgId);
    const fresh = entry !== undefined && entry.expiresAt > Date.now();
    reportCache('ai-systems', fresh);
    if (fresh) {
      const systems = settled(entry.systems);
      if (!(systems instanceof Promise)) {
        const found = lookup(systems, value);
        if (found !== null) return found;
      }
      return entry.systems.then((loaded) => lookup(loaded, value) ?? this.reload(orgId, value));
    }
    return this.load(orgId).then((loaded) => lookup(loaded, value));
  }

  /** After a create, update or delete of one of the org's systems committed: here, and on the others. */
  changed(orgId: string): void {
    this.drop(orgId);
    // Best effort: the change is committed; an instance that misses this falls back to the TTL.
    this.redis?.publish(this.channel, orgId).catch(() => {});
  }

  close(): void {
    this.subscriber?.disconnect();
  }

  private reload(orgId: string, value: string): Promise<string | null> {
    this.drop(orgId);
    return this.load(orgId).then((loaded) => lookup(loaded, value));
  }

  private load(orgId: string): Promise<OrgSystems> {
    const current = this.entries.peek(orgId);
    if (current !== undefined && current.expiresAt > Date.now()) return current.systems;
    const generation = this.generations.get(orgId) ?? 0;
    const systems = remember(
      selectAiSystemNames(this.db.em(), orgId).then((rows) => ({
        ids: new Set(rows.map((row) => row.systemId)),
        byName: new Map(rows.map((row) => [row.name.toLowerCase(), row.systemId])),
      })),
    );
    const entry = { systems, expiresAt: Date.now() + TTL_MS };
    this.entries.set(orgId, entry);
    const forget = () => {
      if (this.entries.peek(orgId) === entry) this.entries.delete(orgId);
    };
    // A read that began before a change may hold the old inventory: it answers its callers, but is not kept.
    systems.then(() => {
      if ((this.generations.get(orgId) ?? 0) !== generation) forget();
    }, forget);
    return systems;
  }

  private drop(orgId: string): void {
    this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
    this.entries.delete(orgId);
  }

  private clear(): void {
    for (const [orgId] of this.entries) this.generations.set(orgId, (this.generations.get(orgId) ?? 0) + 1);
    this.entries.clear();
  }
}

function lookup(systems: OrgSystems, value: string): string | null {
  if (systems.ids.has(value)) return value;
  return systems.byName.get(value.toLowerCase()) ?? null;
}
