import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { complianceRollupJob, scheduleComplianceRollup } from '../../src/features/scores/rollup.job.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { openTestDatabase, type TestDatabase } from '../support/app.js';
import { freePort } from '../support/free-port.js';

const PREFIX = 'test-reschedule';

/**
 * Redis restarted without its data (no persistence, as on this machine, or a failover to an empty
 * replica): the roll-up schedule must come back by itself when the daemon's queue connection reconnects.
 */
describe('repeatable jobs after Redis loses its data', () => {
  let port: number;
  let server: ChildProcess | undefined;
  let testDb: TestDatabase;
  let runner: BullmqJobRunner;

  const startRedis = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let output = '';
    for await (const chunk of server.stdout as NodeJS.ReadableStream) {
      output += chunk;
      if (output.includes('Ready to accept connections')) break;
    }
  };
  const stopRedis = async () => {
    if (!server || server.exitCode !== null) return;
    const exited = once(server, 'exit');
    server.kill('SIGKILL');
    await exited;
  };
  const schedulers = async () => {
    const queue = new Queue(complianceRollupJob.name, {
      connection: { port, host: '127.0.0.1' },
      prefix: PREFIX,
    });
    try {
      return (await queue.getJobSchedulers()).map((scheduler) => scheduler.key);
    } finally {
      await queue.close();
    }
  };

  beforeAll(async () => {
    port = await freePort();
    await startRedis();
    testDb = await openTestDatabase('postgres');
    runner = new BullmqJobRunner({
      url: `redis://127.0.0.1:${port}`,
      db: testDb.db,
      log: pino({ level: 'silent' }),
      prefix: PREFIX,
      callTimeoutMs: 500,
      retryEveryMs: 200,
    });
  }, 60_000);
  afterAll(async () => {
    await runner?.close();
    await stopRedis();
    await testDb?.close();
  });

  it('asserts the roll-up schedule again when the queue reconnects', async () => {
    await scheduleComplianceRollup(runner);
    expect(await schedulers()).toContain('compliance-rollup');

    await stopRedis();
    await startRedis();
    // The new server is empty: nothing but the daemon's reconnect can put the schedule back.
    await vi.waitFor(async () => expect(await schedulers()).toContain('compliance-rollup'), {
      timeout: 30_000,
      interval: 100,
    });
  }, 60_000);
});
