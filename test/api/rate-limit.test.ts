import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, openTestDatabase, REDIS_TEST_URL, type TestDatabase } from '../support/app.js';

async function appWithLimit(test: TestDatabase, redis: Redis | null) {
  const config = { ...test.config, rateLimit: { max: 3, windowMs: 60_000 } };
  const app = await buildApp({
    config,
    db: test.db,
    jobs: new InProcessJobRunner(test.db, pino({ level: 'silent' })),
    redis,
  });
  await app.ready();
  return app;
}

const get = (app: Awaited<ReturnType<typeof appWithLimit>>, key = ADMIN_KEY) =>
  app.inject({ method: 'GET', url: '/api/v1/controls', headers: { authorization: `Bearer ${key}` } });

describe('rate limiting', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it('answers 429 RATE_LIMITED with Retry-After once a key exceeds its budget', async () => {
    const test = await openTestDatabase('pglite');
    closers.push(test.close);
    const app = await appWithLimit(test, null);
    closers.push(() => app.close());
    for (let i = 0; i < 3; i += 1) expect((await get(app)).statusCode).toBe(200);
    const limited = await get(app);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('shares the counters of every daemon instance through Redis', async () => {
    const test = await openTestDatabase('pglite');
    closers.push(test.close);
    const prefix = `comply-test-${randomBytes(4).toString('hex')}:`;
    const redisA = new Redis(REDIS_TEST_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
    const redisB = new Redis(REDIS_TEST_URL, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
    closers.push(
      () => redisA.quit(),
      () => redisB.quit(),
    );
    const first = await appWithLimit(test, redisA);
    const second = await appWithLimit(test, redisB);
    closers.push(
      () => first.close(),
      () => second.close(),
    );
    expect((await get(first)).statusCode).toBe(200);
    expect((await get(second)).statusCode).toBe(200);
    expect((await get(first)).statusCode).toBe(200);
    expect((await get(second)).statusCode).toBe(429);
  });
});
