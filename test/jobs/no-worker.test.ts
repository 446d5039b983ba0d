import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportJob } from '../../src/features/exports/export.job.js';
import { jobRegistry } from '../../src/job-registry.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import { createTestApp, dbKinds, REDIS_TEST_URL, type TestApp } from '../support/app.js';

const log = pino({ level: 'silent' });
const queueNames = jobRegistry.map((job) => job.name);

/**
 * A daemon on BullMQ whose worker is not running: readiness says so and names the queues, and a request that
 * waits on a job (an export, which would otherwise wait COMPLY_JOB_WAIT_MS) is refused at once with a hint.
 * Once a worker runs, the daemon is ready and the export works; when it stops, readiness says so again.
 */
describe.runIf(dbKinds.includes('postgres'))('a daemon on BullMQ without a job worker', () => {
  const prefix = `test-no-worker-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let pool: WorkerPool | undefined;
  const readyz = () => t.request({ method: 'GET', url: '/readyz', key: null });
  const exportSoa = () => t.request({ method: 'GET', url: '/api/v1/orgs/acme/export/soa?format=csv' });

  beforeAll(async () => {
    t = await createTestApp('postgres', {
      // The default wait (60 s): the refusal must not come from it.
      env: { COMPLY_JOB_WAIT_MS: '60000' },
      jobs: (db) => new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix }),
    });
    await t.createOrg('acme');
  });
  afterAll(async () => {
    await pool?.close();
    await t?.close();
    for (const name of queueNames) {
      const queue = new Queue(name, { connection: { url: REDIS_TEST_URL }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('is not ready, and names the queues no worker serves', async () => {
    const res = await readyz();
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ status: 'not ready', database: 'ok', queue: 'bullmq', workers: 'missing' });
    expect([...body.unservedQueues].sort()).toEqual([...queueNames].sort());
    expect(body.reason).toContain('no job worker is running for the queues');
    expect(body.reason).toContain('"export"');
    expect(body.reason).toContain('start `comply worker`');
  });

  it('refuses an export with 503 and a hint instead of waiting, and queues nothing', async () => {
    const res = await exportSoa();
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: expect.stringMatching(
        /^No job worker is running for the queue "export": start `comply worker`/,
      ),
      details: { queue: 'export', prefix, hint: expect.stringContaining('start `comply worker`') },
    });
    const queue = new Queue(exportJob.name, { connection: { url: REDIS_TEST_URL }, prefix });
    try {
      expect(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).toEqual({
        waiting: 0,
        active: 0,
        delayed: 0,
        prioritized: 0,
      });
    } finally {
      await queue.close();
    }
  });

  it('is ready once a worker runs, and the export works', async () => {
    pool = startBullmqWorkers({ url: REDIS_TEST_URL, db: t.db, log, prefix, jobs: jobRegistry });
    await pool.ready();
    const res = await readyz();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', database: 'ok', queue: 'bullmq', workers: 'running' });
    const exported = await exportSoa();
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-type']).toMatch(/^text\/csv/);
  });

  it('is not ready again once the worker stops', async () => {
    await pool?.close();
    pool = undefined;
    // Redis drops a closed connection from its client list once it has seen it go.
    await vi.waitFor(async () => expect((await readyz()).statusCode).toBe(503), { timeout: 10_000 });
    expect((await readyz()).json()).toMatchObject({ workers: 'missing' });
    expect((await exportSoa()).statusCode).toBe(503);
  });
});
