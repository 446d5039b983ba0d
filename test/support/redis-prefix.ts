import { Queue } from 'bullmq';
import { Redis } from 'ioredis';

/**
 * The keys a run leaves under its own prefix (COMPLY_QUEUE_PREFIX, or a BullMQ runner's `prefix`), and their
 * removal. Tests and benchmarks that give a daemon or a runner a prefix of their own remove it when they end,
 * so a shared Redis does not collect their queues run after run. Imports nothing of the daemon: the fault
 * campaign uses it too.
 */

/** Keys BullMQ keeps for every queue (`<prefix>:<queue>:<suffix>`): one of them names a queue. */
const QUEUE_SUFFIXES = new Set(['meta', 'id', 'events', 'wait', 'marker', 'repeat', 'completed', 'failed']);

/** Every key under `<prefix>:` with its time to live in milliseconds (-1: none). */
export async function keysUnder(url: string, prefix: string): Promise<Map<string, number>> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const keys = new Map<string, number>();
    // A prefix holds letters, digits, '.', '_' and '-' only: nothing MATCH reads as a pattern.
    for await (const batch of redis.scanStream({ match: `${prefix}:*`, count: 1000 })) {
      for (const key of batch as string[]) keys.set(key, -1);
    }
    for (const key of keys.keys()) keys.set(key, await redis.pttl(key));
    // -2: expired between the scan and the question.
    for (const [key, ttl] of keys) if (ttl === -2) keys.delete(key);
    return keys;
  } finally {
    redis.disconnect();
  }
}

/** The BullMQ queues whose keys are among `keys`. */
export function queuesAmong(keys: Iterable<string>, prefix: string): string[] {
  const queues = new Set<string>();
  for (const key of keys) {
    const [queue, suffix] = key.slice(prefix.length + 1).split(':');
    if (queue && suffix && QUEUE_SUFFIXES.has(suffix)) queues.add(queue);
  }
  return [...queues].sort();
}

/**
 * Obliterates every BullMQ queue under `prefix`, then deletes whatever is left there (counters that would
 * expire by themselves). Run it once the daemons and workers that used the prefix have stopped.
 */
export async function removePrefix(url: string, prefix: string): Promise<{ queues: number; keys: number }> {
  const before = await keysUnder(url, prefix);
  const queues = queuesAmong(before.keys(), prefix);
  for (const name of queues) {
    const queue = new Queue(name, { connection: { url, maxRetriesPerRequest: 1 }, prefix });
    try {
      await queue.obliterate({ force: true });
    } finally {
      await queue.close();
    }
  }
  const left = [...(await keysUnder(url, prefix)).keys()];
  if (left.length > 0) {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    try {
      await redis.unlink(...left);
    } finally {
      redis.disconnect();
    }
  }
  return { queues: queues.length, keys: before.size };
}
