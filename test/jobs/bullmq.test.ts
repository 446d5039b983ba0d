import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceRollupJob } from '../../src/features/scores/rollup.job.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import type { JobDefinition } from '../../src/platform/jobs/jobs.js';
import { createTestApp, dbKinds, REDIS_TEST_URL, type TestApp } from '../support/app.js';

const log = pino({ level: 'silent' });

/** Fails its first attempt, reports progress on every attempt. */
const flakyJob: JobDefinition<{ value: number }, { doubled: number; attempt: number }> = {
  name: 'test-flaky',
  attempts: 2,
  backoffMs: 10,
  async handle(payload, ctx) {
    await ctx.progress(50);
    if (ctx.attempt === 1) throw new Error('transient failure');
    return { doubled: payload.value * 2, attempt: ctx.attempt };
  },
};

const brokenJob: JobDefinition<Record<string, never>, never> = {
  name: 'test-broken',
  attempts: 0,
  async handle() {
    throw new Error('always broken');
  },
};

/** Runs until released: a job that outlives the caller's wait. */
let releaseSlow: () => void = () => {};
const released = new Promise<void>((resolve) => {
  releaseSlow = resolve;
});
const slowJob: JobDefinition<Record<string, never>, string> = {
  name: 'test-slow',
  attempts: 0,
  handle: async () => {
    await released;
    return 'done';
  },
};

describe.runIf(dbKinds.includes('postgres'))('BullMQ jobs through real Redis', () => {
  const prefix = `test-bullmq-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let runner: BullmqJobRunner;
  let pool: WorkerPool;
  const queue = (name: string) => new Queue(name, { connection: { url: REDIS_TEST_URL }, prefix });

  beforeAll(async () => {
    t = await createTestApp('postgres', {
      jobs: (db) => (runner = new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix, waitMs: 20_000 })),
    });
    pool = startBullmqWorkers({
      url: REDIS_TEST_URL,
      db: t.db,
      log,
      prefix,
      jobs: [complianceRollupJob, flakyJob, brokenJob, slowJob],
    });
    await Promise.all(pool.workers.map((worker) => worker.waitUntilReady()));
    await t.createOrg('jobs');
  });
  afterAll(async () => {
    releaseSlow();
    await pool?.close();
    for (const name of [complianceRollupJob.name, flakyJob.name, brokenJob.name, slowJob.name]) {
      const q = queue(name);
      await q.obliterate({ force: true });
      await q.close();
    }
    await t?.close();
  });

  it('runs the roll-up on a worker and returns its result', async () => {
    await t.db.em().execute(`update orgs set created_at = now() - interval '3 days' where org_id = 'jobs'`);
    const result = await runner.run(complianceRollupJob, { orgId: 'jobs' });
    expect(result.orgs).toBe(1);
    expect(result.days).toBeGreaterThan(0);
    const [{ rows }] = await t.db
      .em()
      .execute<{ rows: number }[]>(
        `select count(*)::int as rows from compliance_rollups where org_id = 'jobs'`,
      );
    expect(rows).toBe(result.days);
    const q = queue(complianceRollupJob.name);
    try {
      const [completed] = await q.getCompleted();
      expect(completed.returnvalue).toEqual(result);
      expect(completed.progress).toBe(100);
    } finally {
      await q.close();
    }
  });

  it('retries with backoff, reporting progress and the attempt', async () => {
    expect(await runner.run(flakyJob, { value: 21 })).toEqual({ doubled: 42, attempt: 2 });
    const q = queue(flakyJob.name);
    try {
      const [completed] = await q.getCompleted();
      expect(completed.attemptsMade).toBe(2);
      expect(completed.progress).toBe(50);
    } finally {
      await q.close();
    }
  });

  it('keeps failed jobs for inspection and reports the failure to the caller', async () => {
    await expect(runner.run(brokenJob, {})).rejects.toThrow('always broken');
    const q = queue(brokenJob.name);
    try {
      const failed = await q.getFailed();
      expect(failed).toHaveLength(1);
      expect(failed[0].failedReason).toBe('always broken');
    } finally {
      await q.close();
    }
  });

  it('bounds the wait for a job with 503, without losing the job', async () => {
    await expect(runner.run(slowJob, {}, { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      statusCode: 503,
    });
    releaseSlow();
  });

  it('queues a job once per id', async () => {
    const q = queue(complianceRollupJob.name);
    try {
      await q.pause();
      await runner.enqueue(complianceRollupJob, { orgId: 'jobs' }, { jobId: 'once-only' });
      await runner.enqueue(complianceRollupJob, { orgId: 'jobs' }, { jobId: 'once-only' });
      expect(await q.getJobCountByTypes('waiting')).toBe(1);
      await q.resume();
    } finally {
      await q.close();
    }
  });

  it('registers a repeatable schedule under a stable id', async () => {
    await runner.repeat(complianceRollupJob, {}, { jobId: 'compliance-rollup', everyMs: 3_600_000 });
    await runner.repeat(complianceRollupJob, {}, { jobId: 'compliance-rollup', everyMs: 3_600_000 });
    const q = queue(complianceRollupJob.name);
    try {
      const schedulers = await q.getJobSchedulers();
      expect(schedulers.map((s) => [s.key, s.every])).toEqual([['compliance-rollup', 3_600_000]]);
    } finally {
      await q.close();
    }
    expect(runner.pending()).toEqual({ jobs: 0, schedules: 0 });
  });

  it('reports the queue reachable, and names the registered queues this pool does not serve', async () => {
    const res = await t.request({ method: 'GET', url: '/readyz' });
    // The pool serves the roll-up and the test jobs, not the daemon's other queues.
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body).toMatchObject({ status: 'not ready', database: 'ok', queue: 'bullmq', workers: 'missing' });
    expect(body.unservedQueues).toContain('export');
    expect(body.unservedQueues).not.toContain(complianceRollupJob.name);
  });
});
