import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { jobRegistry } from '../../src/job-registry.js';
import { ADMIN_KEY, createScratchDatabase, dbKinds, REDIS_TEST_URL } from '../support/app.js';
import { type Daemon, startDaemon } from '../support/daemon.js';
import { keysUnder, queuesAmong, removePrefix } from '../support/redis-prefix.js';

/**
 * What a daemon leaves in Redis: every key it writes lies under its own prefix (COMPLY_QUEUE_PREFIX), so
 * deployments sharing a Redis neither share counters nor leave keys in each other's space; every key that is
 * not a BullMQ queue's expires by itself; and the queues go with the prefix once the run ends.
 */
describe.runIf(dbKinds.includes('postgres'))('the Redis keys of a daemon', () => {
  const prefix = `test-keys-${randomBytes(4).toString('hex')}`;
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('lie under its prefix, expire unless they are a queue, and go with the prefix', async () => {
    const scratch = await createScratchDatabase();
    cleanup.push(() => scratch.drop());
    cleanup.push(() => removePrefix(REDIS_TEST_URL, prefix));
    const daemon: Daemon = await startDaemon({
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS_TEST_URL,
      COMPLY_QUEUE_PREFIX: prefix,
      COMPLY_RATE_LIMIT_MAX: '3',
      COMPLY_AUTH_FAILURES_MAX: '3',
      LOG_LEVEL: 'warn',
    });
    cleanup.push(() => daemon.stop());
    const call = async (method: string, route: string, key: string, body?: unknown) => {
      const res = await fetch(`${daemon.url}/api/v1${route}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };

    expect((await call('POST', '/orgs', ADMIN_KEY, { orgId: 'keys', name: 'Keys' })).status).toBe(201);
    const created = await call('POST', '/orgs/keys/keys', ADMIN_KEY, { scopes: ['read'] });
    expect(created.status).toBe(201);
    const { key, keyId } = created.body as { key: string; keyId: string };
    // A key of its own (its id is this test's alone): rate limited past 3 requests a window.
    const reads: number[] = [];
    for (let i = 0; i < 5; i += 1) reads.push((await call('GET', '/orgs/keys/ai-systems', key)).status);
    expect(reads).toEqual([200, 200, 200, 429, 429]);
    // Unknown keys from this address: refused, then limited.
    const refused: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      refused.push(
        (await call('GET', '/orgs/keys/ai-systems', `unknown-${randomBytes(16).toString('hex')}`)).status,
      );
    }
    expect(refused).toEqual([401, 401, 401, 429, 429]);
    // A revocation, published to the other daemons.
    expect((await call('DELETE', `/orgs/keys/keys/${keyId}`, ADMIN_KEY)).status).toBe(204);

    // Every key naming the rate-limited key lies under the daemon's prefix.
    const redis = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
    cleanup.push(async () => redis.disconnect());
    const naming: string[] = [];
    for await (const batch of redis.scanStream({ match: `*${keyId}*`, count: 1000 })) naming.push(...batch);
    expect(naming.length).toBeGreaterThan(0);
    expect(naming.filter((name) => !name.startsWith(`${prefix}:`))).toEqual([]);

    // Under the prefix: the queues of the registered jobs, and keys that expire.
    const keys = await keysUnder(REDIS_TEST_URL, prefix);
    const jobs = new Set(jobRegistry.map((job) => job.name));
    const queueKey = (name: string) => jobs.has(name.slice(prefix.length + 1).split(':')[0]);
    const others = [...keys].filter(([name]) => !queueKey(name));
    expect(others.map(([name]) => name)).toEqual(expect.arrayContaining(naming));
    expect(others.filter(([, ttl]) => !(ttl > 0))).toEqual([]);
    // The daemon's schedules made queues, which the cleanup recognises.
    expect(queuesAmong(keys.keys(), prefix).length).toBeGreaterThan(0);

    expect(await daemon.stop()).toBe(0);
    const removed = await removePrefix(REDIS_TEST_URL, prefix);
    expect(removed.keys).toBeGreaterThan(0);
    expect([...(await keysUnder(REDIS_TEST_URL, prefix)).keys()]).toEqual([]);
  }, 120_000);
});
