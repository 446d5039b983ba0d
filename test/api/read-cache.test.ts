import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { listOrgControls } from '../../src/features/controls/controls.service.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { OrgReadCache, orgInvalidationChannel } from '../../src/platform/cache/org-read-cache.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, createTestApp, openTestDatabase, REDIS_TEST_URL, type TestApp } from '../support/app.js';
import { oscalCatalog } from '../support/oscal-catalog.js';

describe('cached org reads stay exact', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    await t.createOrg('acme');
  });
  afterAll(async () => {
    await t?.close();
  });

  const control = async (controlId: string) =>
    (await t.request({ method: 'GET', url: '/api/v1/orgs/acme/controls' }))
      .json()
      .controls.find((c: { controlId: string }) => c.controlId === controlId);
  const score = async () =>
    (await t.request({ method: 'GET', url: '/api/v1/orgs/acme/compliance' })).json().score;

  it('sends a kept body as the bytes it was serialized to, text beyond Latin-1 intact', async () => {
    await t.createOrg('bytes');
    await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/bytes/controls/A.6.1.2/status',
      body: { status: 'in_progress', reviewer: 'Zoë Ødegård', note: 'Review “ongoing” — 進行中' },
    });
    const url = '/api/v1/orgs/bytes/controls';
    const [miss, hit] = [await t.request({ method: 'GET', url }), await t.request({ method: 'GET', url })];
    expect(hit.rawPayload.equals(miss.rawPayload)).toBe(true);
    expect(Number(hit.headers['content-length'])).toBe(hit.rawPayload.length);
    const record = hit.json().controls.find((c: { controlId: string }) => c.controlId === 'A.6.1.2');
    expect(record).toMatchObject({ reviewer: 'Zoë Ødegård' });
    const cache = new OrgReadCache();
    const compute = async () => ({ value: { note: '進行中' } });
    const kept = await cache.get('bytes', 'k', compute, JSON.stringify);
    expect(Buffer.isBuffer(kept) && kept.toString('utf8')).toBe('{"note":"進行中"}');
    expect(cache.get('bytes', 'k', compute, JSON.stringify)).toBe(kept);
  });

  it('shows a status change on the very next read', async () => {
    expect((await control('A.5.2')).status).toBe('not_started');
    expect(await score()).toBe(0);
    await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.5.2/status',
      body: { status: 'implemented', reviewer: 'alice' },
    });
    expect((await control('A.5.2')).status).toBe('implemented');
    expect(await score()).toBe(2.6);
  });

  it('shows new evidence on the very next read', async () => {
    expect((await control('A.5.3')).evidenceCount).toBe(0);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/controls/A.5.3/evidence',
      body: { type: 'link', title: 'Impact assessment', fileUrl: 'https://docs.example.com/ia' },
    });
    expect(res.statusCode).toBe(201);
    const after = await control('A.5.3');
    expect(after.evidenceCount).toBe(1);
    expect(after.evidence[0].title).toBe('Impact assessment');
  });

  it('knows until when a view stays exact: the next evidence expiry', async () => {
    const soon = new Date(Date.now() + 3_600_000);
    const later = new Date(Date.now() + 7_200_000);
    for (const expiresAt of [later, soon]) {
      await t.request({
        method: 'POST',
        url: '/api/v1/orgs/acme/controls/A.5.4/evidence',
        body: {
          type: 'link',
          title: 'Review',
          fileUrl: 'https://docs.example.com/r',
          expiresAt: expiresAt.toISOString(),
        },
      });
    }
    const { validUntil } = await listOrgControls(t.db.em(), 'acme', {});
    expect(validUntil).toBe(soon.getTime());
  });
});

describe('cached org reads across daemon instances', () => {
  const headers = { authorization: `Bearer ${ADMIN_KEY}` };

  /** Two daemon instances on one PostgreSQL database and one Redis, with the org `acme`. */
  async function withTwoInstances(run: (a: FastifyInstance, b: FastifyInstance) => Promise<void>) {
    const test = await openTestDatabase('postgres');
    const prefix = `comply-test-${randomBytes(4).toString('hex')}:`;
    const redisA = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
    const redisB = new Redis(REDIS_TEST_URL, { keyPrefix: prefix });
    const jobs = new InProcessJobRunner(test.db, pino({ level: 'silent' }));
    const a = await buildApp({ config: test.config, db: test.db, jobs, redis: redisA });
    const b = await buildApp({ config: test.config, db: test.db, jobs, redis: redisB });
    try {
      await createOrg(test.db.em(), { orgId: 'acme', name: 'Acme' });
      await run(a, b);
    } finally {
      await a.close();
      await b.close();
      await redisA.quit();
      await redisB.quit();
      await test.close();
    }
  }

  it('are invalidated through Redis when another instance writes', () =>
    withTwoInstances(async (a, b) => {
      const readScore = async () =>
        (await a.inject({ method: 'GET', url: '/api/v1/orgs/acme/compliance', headers })).json().score;
      expect(await readScore()).toBe(0);
      await b.inject({
        method: 'PUT',
        url: '/api/v1/orgs/acme/controls/A.2.2/status',
        headers,
        payload: { status: 'implemented', reviewer: 'alice' },
      });
      await vi.waitFor(async () => expect(await readScore()).toBe(2.6), { timeout: 5000, interval: 20 });
    }));

  it('see a framework imported through another instance (the library revision is held, not read per request)', () =>
    withTwoInstances(async (a, b) => {
      const frameworksSeenByA = async () =>
        (await a.inject({ method: 'GET', url: '/api/v1/cte/coverage?orgId=acme', headers }))
          .json()
          .frameworks.map((framework: { frameworkId: string }) => framework.frameworkId);
      // The first read waits for the library to load, however long a busy machine makes that.
      await vi.waitFor(async () => expect(await frameworksSeenByA()).toContain('iso-42001'), {
        timeout: 20_000,
        interval: 50,
      });
      expect(await frameworksSeenByA()).not.toContain('tiny-catalog');
      const imported = await b.inject({
        method: 'POST',
        url: '/api/v1/cte/frameworks/import?frameworkId=tiny-catalog',
        headers,
        payload: tinyCatalog,
      });
      expect(imported.statusCode).toBe(201);
      await vi.waitFor(async () => expect(await frameworksSeenByA()).toContain('tiny-catalog'), {
        timeout: 5000,
        interval: 20,
      });
    }));
});

describe('org invalidation broadcasts', () => {
  it('go out once per org and turn of the event loop, however many writes the turn answered', async () => {
    const publisher = new Redis(REDIS_TEST_URL);
    const listener = new Redis(REDIS_TEST_URL);
    const org = `burst-${randomBytes(4).toString('hex')}`;
    const heard: string[] = [];
    try {
      listener.on('message', (_channel, orgId: string) => {
        if (orgId.startsWith(org)) heard.push(orgId);
      });
      await listener.subscribe(orgInvalidationChannel('comply'));
      const cache = new OrgReadCache(publisher);
      // An ingest batch answers its writes together: a hundred to one org, one to another.
      for (let write = 0; write < 100; write += 1) cache.invalidate(org);
      cache.invalidate(`${org}-other`);
      await vi.waitFor(() => expect(heard).toHaveLength(2), { timeout: 5000, interval: 10 });
      expect(heard.sort()).toEqual([org, `${org}-other`]);
      // A write in a later turn is announced again.
      cache.invalidate(org);
      await vi.waitFor(() => expect(heard).toHaveLength(3), { timeout: 5000, interval: 10 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toHaveLength(3);
    } finally {
      listener.disconnect();
      await publisher.quit();
    }
  });
});

describe('org invalidations between deployments sharing one Redis', () => {
  it('reach the instances under the same prefix (COMPLY_QUEUE_PREFIX) only', async () => {
    const prefix = `test-channels-${randomBytes(4).toString('hex')}`;
    const redis = new Redis(REDIS_TEST_URL);
    const writer = new OrgReadCache(redis, prefix);
    const sameDeployment = new OrgReadCache(redis, prefix);
    const otherDeployment = new OrgReadCache(redis, `${prefix}-other`);
    const computed = { same: 0, other: 0 };
    const read = (cache: OrgReadCache, which: keyof typeof computed) =>
      cache.get(
        'acme',
        'score',
        async () => {
          computed[which] += 1;
          return { value: computed[which] };
        },
        (value) => String(value),
      );
    try {
      sameDeployment.start();
      otherDeployment.start();
      // Each keeps what it reads once it listens for invalidations.
      await vi.waitFor(
        async () => {
          await read(sameDeployment, 'same');
          await read(otherDeployment, 'other');
          expect(read(sameDeployment, 'same')).not.toBeInstanceOf(Promise);
          expect(read(otherDeployment, 'other')).not.toBeInstanceOf(Promise);
        },
        { timeout: 5000, interval: 20 },
      );
      const before = { ...computed };
      writer.invalidate('acme');
      await vi.waitFor(() => expect(read(sameDeployment, 'same')).toBeInstanceOf(Promise), {
        timeout: 5000,
        interval: 10,
      });
      expect(computed.same).toBe(before.same + 1);
      expect(read(otherDeployment, 'other')).not.toBeInstanceOf(Promise);
      expect(computed.other).toBe(before.other);
    } finally {
      await Promise.all([sameDeployment.close(), otherDeployment.close(), writer.close()]);
      await redis.quit();
    }
  });
});

/** The smallest OSCAL catalog the import accepts: one group, one control. */
const tinyCatalog = oscalCatalog('0b7e4a8e-1f2d-4c3b-9a5e-6d7c8b9a0f12', 'Tiny catalog', {
  groups: [{ id: 'g', title: 'Group', controls: [{ id: 'c-1', title: 'A control', prose: 'Do it.' }] }],
});
