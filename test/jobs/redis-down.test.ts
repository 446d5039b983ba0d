import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { complianceRollupJob, rollupJobId } from '../../src/features/scores/rollup.job.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import { createRedis } from '../../src/platform/jobs/redis.js';
import { ADMIN_KEY, dbKinds, openTestDatabase, type TestDatabase } from '../support/app.js';

const log = pino({ level: 'silent' });

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The daemon configured with a Redis that is not running: reads and writes must work, readiness must say
 * so, and the work queued meanwhile must reach the queue once Redis starts.
 */
describe.each(dbKinds)('Redis down on %s', (kind) => {
  const prefix = `test-down-${randomBytes(4).toString('hex')}`;
  let url: string;
  let testDb: TestDatabase;
  let runner: BullmqJobRunner;
  let rateLimitRedis: Redis;
  let app: FastifyInstance;
  let redisServer: ChildProcess | undefined;
  let pool: WorkerPool | undefined;

  const request = (method: 'GET' | 'POST' | 'PUT', path: string, body?: object) =>
    app.inject({ method, url: path, headers: { authorization: `Bearer ${ADMIN_KEY}` }, payload: body });

  beforeAll(async () => {
    url = `redis://127.0.0.1:${await freePort()}`;
    testDb = await openTestDatabase(kind);
    runner = new BullmqJobRunner({ url, db: testDb.db, log, prefix, callTimeoutMs: 300, retryEveryMs: 200 });
    rateLimitRedis = createRedis(url, 'command', log, 'rate-limit');
    app = await buildApp({ config: testDb.config, db: testDb.db, jobs: runner, redis: rateLimitRedis });
    await app.ready();
    await createOrg(testDb.db.em(), { orgId: 'down', name: 'Down' });
    // Finished days that are not rolled up make a history read ask for the roll-up.
    await testDb.db
      .em()
      .execute(`update orgs set created_at = now() - interval '3 days' where org_id = 'down'`);
  });
  afterAll(async () => {
    await pool?.close();
    if (redisServer) {
      const queue = new Queue(complianceRollupJob.name, { connection: { url }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
      redisServer.kill('SIGTERM');
    }
    await app?.close();
    await runner?.close();
    rateLimitRedis?.disconnect();
    await testDb?.close();
  });

  it('serves reads and writes', async () => {
    const evidence = await request('POST', '/api/v1/orgs/down/controls/A.2.2/evidence', {
      type: 'attestation',
      title: 'works without Redis',
    });
    expect(evidence.statusCode).toBe(201);
    const status = await request('PUT', '/api/v1/orgs/down/controls/A.2.2/status', {
      status: 'implemented',
      reviewer: 'alice',
    });
    expect(status.statusCode).toBe(200);
    expect((await request('GET', '/api/v1/orgs/down/compliance')).json().counts.implemented).toBe(1);
    expect((await request('GET', '/api/v1/orgs/down/controls')).statusCode).toBe(200);
    const history = await request('GET', '/api/v1/orgs/down/compliance/history');
    expect(history.statusCode).toBe(200);
    expect(history.json().points.at(-1).counts.implemented).toBe(1);
    const snapshot = await request('POST', '/api/v1/orgs/down/compliance/snapshot', { label: 'offline' });
    expect(snapshot.statusCode).toBe(201);
  });

  it('reports the queue unreachable in readiness', async () => {
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'not ready', database: 'ok', queue: 'unreachable' });
  });

  it('keeps the work it could not queue, and schedules', async () => {
    await vi.waitFor(() => expect(runner.pending().jobs).toBe(1), { timeout: 10_000 });
    await runner.repeat(complianceRollupJob, {}, { jobId: 'compliance-rollup', everyMs: 3_600_000 });
    expect(runner.pending()).toEqual({ jobs: 1, schedules: 1 });
  });

  it('queues it once Redis is back, and a worker runs it', async () => {
    redisServer = spawn(
      'redis-server',
      ['--port', new URL(url).port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await vi.waitFor(() => expect(runner.pending()).toEqual({ jobs: 0, schedules: 0 }), {
      timeout: 20_000,
      interval: 100,
    });
    pool = startBullmqWorkers({ url, db: testDb.db, log, prefix, jobs: [complianceRollupJob] });
    const queue = new Queue(complianceRollupJob.name, { connection: { url }, prefix });
    try {
      const jobs = await queue.getJobs(['waiting', 'active', 'completed', 'delayed']);
      const job = jobs.find((queued) => queued.id?.startsWith(rollupJobId('down', '')));
      expect(job?.data).toEqual({ orgId: 'down' });
      await vi.waitFor(async () => expect(await job?.isCompleted()).toBe(true), {
        timeout: 20_000,
        interval: 100,
      });
      expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual(['compliance-rollup']);
    } finally {
      await queue.close();
    }
    // The queue is reachable again; of the daemon's queues, this pool serves the roll-up's only.
    const ready = (await app.inject({ method: 'GET', url: '/readyz' })).json();
    expect(ready).toMatchObject({ database: 'ok', queue: 'bullmq', workers: 'missing' });
    expect(ready.unservedQueues).not.toContain(complianceRollupJob.name);
  });
});

describe.each(dbKinds)('run() with Redis down on %s', (kind) => {
  let testDb: TestDatabase;
  let runner: BullmqJobRunner;
  beforeAll(async () => {
    testDb = await openTestDatabase(kind);
    const url = `redis://127.0.0.1:${await freePort()}`;
    runner = new BullmqJobRunner({ url, db: testDb.db, log, callTimeoutMs: 300 });
    await createOrg(testDb.db.em(), { orgId: 'local', name: 'Local' });
    await testDb.db
      .em()
      .execute(`update orgs set created_at = now() - interval '3 days' where org_id = 'local'`);
  });
  afterAll(async () => {
    await runner?.close();
    await testDb?.close();
  });

  it('runs the job in this process instead of failing', async () => {
    const result = await runner.run(complianceRollupJob, { orgId: 'local' });
    expect(result.orgs).toBe(1);
    expect(result.days).toBeGreaterThan(0);
  });
});
