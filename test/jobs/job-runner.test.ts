import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { complianceRollupJob } from '../../src/features/scores/rollup.job.js';
import { jobRegistry } from '../../src/job-registry.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { createJobRunner } from '../../src/platform/jobs/create-job-runner.js';
import { startWorker } from '../../src/worker.js';
import {
  createScratchDatabase,
  createTestApp,
  dbKinds,
  openTestDatabase,
  REDIS_TEST_URL,
  type TestApp,
} from '../support/app.js';
import { removePrefix } from '../support/redis-prefix.js';

const log = pino({ level: 'silent' });

describe.each(dbKinds)('jobs without Redis on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      jobs: (db) => createJobRunner({ redisUrl: null, jobWaitMs: 5000, queuePrefix: 'comply' }, db, log),
    });
    await t.createOrg('solo');
    await t.db.em().execute(`update orgs set created_at = now() - interval '3 days' where org_id = 'solo'`);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs the same handlers in this process', async () => {
    expect(t.jobs.kind).toBe('in-process');
    const result = await t.jobs.run(complianceRollupJob, {});
    expect(result.orgs).toBe(1);
    const [{ days }] = await t.db
      .em()
      .execute<{ days: number }[]>(
        `select count(*)::int as days from compliance_rollups where org_id = 'solo'`,
      );
    expect(days).toBe(result.days);
    expect(days).toBeGreaterThan(0);
  });

  it('reports the in-process queue as ready', async () => {
    const res = await t.request({ method: 'GET', url: '/readyz' });
    expect(res.json()).toEqual({ status: 'ready', database: 'ok', queue: 'in-process' });
  });
});

describe('choosing a runner', () => {
  it('keeps jobs in-process on PGlite even with Redis configured: no worker can open it', async () => {
    const testDb = await openTestDatabase('pglite');
    try {
      const runner = createJobRunner(
        { redisUrl: REDIS_TEST_URL, jobWaitMs: 5000, queuePrefix: `comply-${randomUUID()}` },
        testDb.db,
        log,
      );
      expect(runner.kind).toBe('in-process');
      await runner.close();
    } finally {
      await testDb.close();
    }
  });

  it.runIf(dbKinds.includes('postgres'))('uses BullMQ on PostgreSQL with Redis configured', async () => {
    const testDb = await openTestDatabase('postgres');
    try {
      const runner = createJobRunner(
        { redisUrl: REDIS_TEST_URL, jobWaitMs: 5000, queuePrefix: `comply-${randomUUID()}` },
        testDb.db,
        log,
      );
      expect(runner.kind).toBe('bullmq');
      expect(await runner.ready()).toBe(true);
      await runner.close();
    } finally {
      await testDb.close();
    }
  });

  it('registers every job once', () => {
    const names = jobRegistry.map((job) => job.name);
    expect(names).toContain(complianceRollupJob.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('comply worker', () => {
  it('refuses to start without PostgreSQL or without Redis, with a clear message', async () => {
    await expect(startWorker(loadConfig({ REDIS_URL: REDIS_TEST_URL }))).rejects.toThrow(
      expect.objectContaining({ constructor: ConfigError, message: expect.stringMatching(/DATABASE_URL/) }),
    );
    await expect(
      startWorker(loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' })),
    ).rejects.toThrow(/REDIS_URL/);
  });

  const runWorker = (env: Record<string, string>) =>
    spawn(process.execPath, ['--import', 'tsx', 'workers/worker.ts'], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const exitOf = (child: ReturnType<typeof runWorker>) =>
    new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  it('exits 2 with the reason when given the embedded database', async () => {
    const child = runWorker({ REDIS_URL: REDIS_TEST_URL });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    expect(await exitOf(child)).toBe(2);
    expect(stderr).toMatch(/needs PostgreSQL \(DATABASE_URL\)/);
  });

  it.runIf(dbKinds.includes('postgres'))('serves the queues until SIGTERM, then exits 0', async () => {
    const scratch = await createScratchDatabase();
    // Its own Redis database and prefix, so it never takes jobs queued by anything else; both go at the end.
    const redisUrl = `${REDIS_TEST_URL}/15`;
    const prefix = `test-worker-${randomUUID()}`;
    try {
      const child = runWorker({
        DATABASE_URL: scratch.url,
        REDIS_URL: redisUrl,
        COMPLY_QUEUE_PREFIX: prefix,
      });
      const exit = exitOf(child);
      await new Promise<void>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          if (output.includes('comply worker ready')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
      });
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      await removePrefix(redisUrl, prefix);
      await scratch.drop();
    }
  });
});

describe.runIf(dbKinds.includes('postgres'))('the roll-up job', () => {
  it('is idempotent: a second run writes nothing new and changes nothing', async () => {
    const testDb = await openTestDatabase('postgres');
    try {
      await createOrg(testDb.db.em(), { orgId: 'twice', name: 'Twice' });
      await testDb.db.em().execute(`update orgs set created_at = now() - interval '10 days'`);
      const jobs = createJobRunner(testDb.config, testDb.db, log);
      const ctx = { db: testDb.db, log, progress: () => {}, attempt: 1, config: testDb.config, jobs };
      const first = await complianceRollupJob.handle({}, ctx);
      const rows = () =>
        testDb.db
          .em()
          .execute('select day::text, implemented, not_started from compliance_rollups order by day');
      const before = await rows();
      expect(await complianceRollupJob.handle({ orgId: 'twice' }, ctx)).toEqual({ orgs: 1, days: 0 });
      expect(await rows()).toEqual(before);
      expect(before).toHaveLength(first.days);
    } finally {
      await testDb.close();
    }
  });
});
