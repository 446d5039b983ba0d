import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationJobs } from '../../src/features/notifications/notifications.jobs.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import { createTestApp, dbKinds, REDIS_TEST_URL, type TestApp } from '../support/app.js';
import { ofType, Receiver } from './receiver.js';

const ORG = '/api/v1/orgs/acme';
const log = pino({ level: 'silent' });

/** The production path: the daemon queues on BullMQ, a worker pool dispatches and delivers. */
describe.runIf(dbKinds.includes('postgres'))('webhook deliveries on BullMQ workers (postgres)', () => {
  const prefix = `test-webhooks-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let pool: WorkerPool;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    t = await createTestApp('postgres', {
      env: { COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true', COMPLY_WEBHOOK_BACKOFF_MS: '100' },
      jobs: (db) => new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix, waitMs: 20_000 }),
    });
    pool = startBullmqWorkers({
      url: REDIS_TEST_URL,
      db: t.db,
      log,
      prefix,
      jobs: notificationJobs,
      config: t.config,
    });
    await Promise.all(pool.workers.map((worker) => worker.waitUntilReady()));
    await t.createOrg('acme');
  });
  afterAll(async () => {
    await pool?.close();
    await t?.close();
    for (const job of notificationJobs) {
      const queue = new Queue(job.name, { connection: { url: REDIS_TEST_URL }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    await receiver.close();
  });

  it('delivers signed events, retries a 500 through the queue’s backoff, and logs both attempts', async () => {
    const created = await t.request({
      method: 'POST',
      url: `${ORG}/webhooks`,
      body: { url: receiver.url, events: ['requirement.status_changed', 'finding.opened'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { webhookId, secret } = created.json();

    receiver.answer(500);
    const changed = await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.6.2.8/status`,
      body: { status: 'in_progress', reviewer: 'alice' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [first, second] = await receiver.waitFor(ofType('requirement.status_changed'), 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.at - first.at).toBeGreaterThanOrEqual(90);
    const event = new Webhook(secret).verify(second.body, second.headers);
    expect(event).toMatchObject({
      type: 'requirement.status_changed',
      data: { orgId: 'acme', changes: { status: { from: 'not_started', to: 'in_progress' } } },
    });

    const audit = await t.request({
      method: 'POST',
      url: `${ORG}/audits`,
      body: {
        title: 'IA',
        frameworkIds: ['iso-42001'],
        leadAuditor: 'Ines',
        plannedStart: '2026-01-01T00:00:00Z',
        plannedEnd: '2026-01-02T00:00:00Z',
      },
    });
    const finding = await t.request({
      method: 'POST',
      url: `${ORG}/audits/${audit.json().auditId}/findings`,
      body: { kind: 'observation', requirements: [], description: 'Logs kept 30 days only' },
    });
    expect(finding.statusCode, finding.body).toBe(201);
    const [opened] = await receiver.waitFor(ofType('finding.opened'));
    expect(new Webhook(secret).verify(opened.body, opened.headers)).toMatchObject({
      data: { resource: { type: 'finding', id: finding.json().findingId } },
    });

    await expect
      .poll(
        async () =>
          (await t.request({ method: 'GET', url: `${ORG}/webhooks/${webhookId}/deliveries` }))
            .json()
            .deliveries.map((d: Record<string, unknown>) => [d.type, d.attempt, d.statusCode, d.outcome]),
        { timeout: 5000 },
      )
      .toEqual([
        ['finding.opened', 1, 200, 'delivered'],
        ['requirement.status_changed', 2, 200, 'delivered'],
        ['requirement.status_changed', 1, 500, 'retrying'],
      ]);
  });
});
