import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import {
  dueScanJob,
  notificationJobs,
  scheduleNotifications,
} from '../../src/features/notifications/notifications.jobs.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import {
  ADMIN_KEY,
  createScratchDatabase,
  createTestApp,
  dbKinds,
  REDIS_TEST_URL,
  type TestApp,
} from '../support/app.js';
import { ofType, Receiver } from './receiver.js';

const ORG = '/api/v1/orgs/acme';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
const log = pino({ level: 'silent' });

describe.each(dbKinds)('due-soon, overdue and needs-acceptance events (%s)', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let secret: string;
  let soonEvidence: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    await t.createOrg('acme');
    receiver = await new Receiver().start();
    const created = await t.request({
      method: 'POST',
      url: `${ORG}/webhooks`,
      body: { url: receiver.url, events: ['item.due_soon', 'item.overdue', 'risk.needs_acceptance'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    secret = created.json().secret;
    const post = async (url: string, body: unknown) => {
      const response = await t.request({ method: 'POST', url: `${ORG}${url}`, body });
      expect(response.statusCode, response.body).toBe(201);
      return response.json();
    };
    await post('/controls/A.2.2/evidence', {
      type: 'link',
      title: 'Old policy',
      fileUrl: 'https://example.com/old',
      expiresAt: at(-2),
    });
    soonEvidence = (
      await post('/controls/A.2.3/evidence', {
        type: 'link',
        title: 'Current policy',
        fileUrl: 'https://example.com/now',
        expiresAt: at(3),
      })
    ).evidenceId;
    await post('/controls/A.2.4/evidence', {
      type: 'link',
      title: 'Next policy',
      fileUrl: 'https://example.com/next',
      expiresAt: at(30),
    });
    await post('/risks', {
      title: 'Unvalidated updates',
      owner: 'Dana',
      likelihood: 3,
      impact: 3,
      treatment: {
        option: 'mitigate',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }],
        dueDate: at(2),
      },
    });
    await post('/risks', {
      title: 'Residual bias',
      likelihood: 4,
      impact: 4,
      treatment: { option: 'accept', requirements: [] },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const counts = () =>
    receiver.bodies().reduce<Record<string, number>>((all, body) => {
      all[body.type] = (all[body.type] ?? 0) + 1;
      return all;
    }, {});

  it('emits each item once per threshold, and a risk needing acceptance once', async () => {
    await t.jobs.run(dueScanJob, {});
    await receiver.waitFor(() => true, 4);
    await settle();
    expect(counts()).toEqual({ 'item.overdue': 1, 'item.due_soon': 2, 'risk.needs_acceptance': 1 });
    const soon = receiver.received.filter(ofType('item.due_soon'));
    for (const request of soon)
      expect(() => new Webhook(secret).verify(request.body, request.headers)).not.toThrow();
    const evidence = receiver
      .bodies<{
        type: string;
        data: { resource: { id: string }; changes: Record<string, { to: unknown }> };
      }>()
      .find((body) => body.type === 'item.due_soon' && body.data.resource.id === soonEvidence);
    expect(evidence?.data.changes.kind.to).toBe('evidence_expiry');
    expect(evidence?.data.changes.title.to).toBe('Evidence "Current policy" (iso-42001 A.2.3) expires');
    // The emissions are in the audit trail too, by comply itself.
    const trail = await t.request({ method: 'GET', url: `${ORG}/audit-log?action=item.` });
    expect(trail.json().events).toHaveLength(3);
    expect(trail.json().events[0].actor).toEqual({ type: 'system', id: 'system', name: 'comply' });

    // A second scan emits nothing new.
    await t.jobs.run(dueScanJob, {});
    await settle();
    expect(receiver.received).toHaveLength(4);
  });

  it('emits overdue when a due-soon item passes its date, once', async () => {
    const later = Date.now() + 4 * DAY;
    await t.jobs.run(dueScanJob, { now: later });
    await receiver.waitFor(ofType('item.overdue'), 3);
    await t.jobs.run(dueScanJob, { now: later });
    await settle();
    expect(counts()).toEqual({ 'item.overdue': 3, 'item.due_soon': 2, 'risk.needs_acceptance': 1 });
  });

  it('emits needs-acceptance again when the risk’s assessment changes', async () => {
    const risks = (await t.request({ method: 'GET', url: `${ORG}/risks` })).json().risks;
    const bias = risks.find((risk: { title: string }) => risk.title === 'Residual bias');
    const changed = await t.request({
      method: 'PUT',
      url: `${ORG}/risks/${bias.riskId}`,
      body: { likelihood: 5 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await t.jobs.run(dueScanJob, {});
    await receiver.waitFor(ofType('risk.needs_acceptance'), 2);
    // A descriptive change is no new assessment.
    await t.request({
      method: 'PUT',
      url: `${ORG}/risks/${bias.riskId}`,
      body: { title: 'Residual bias (chat)' },
    });
    await t.jobs.run(dueScanJob, {});
    await settle();
    expect(counts()['risk.needs_acceptance']).toBe(2);
  });
});

interface Instance {
  app: FastifyInstance;
  db: Database;
  runner: BullmqJobRunner;
  pool: WorkerPool;
}

/**
 * Two daemons with their BullMQ workers on one PostgreSQL and one Redis: both scan at once, and one restarts and
 * scans again; each item is still emitted, and delivered, once.
 */
describe.runIf(dbKinds.includes('postgres'))('due events across daemons and restarts', () => {
  const prefix = `test-notify-${randomBytes(4).toString('hex')}`;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let receiver: Receiver;
  const instances = new Set<Instance>();

  async function instance(): Promise<Instance> {
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS_TEST_URL,
      COMPLY_QUEUE_PREFIX: prefix,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'silent',
    });
    const db = await openDatabase(config);
    const runner = new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix, config, waitMs: 20_000 });
    const pool = startBullmqWorkers({ url: REDIS_TEST_URL, db, log, prefix, jobs: notificationJobs, config });
    await Promise.all(pool.workers.map((worker) => worker.waitUntilReady()));
    const app = await buildApp({ config, db, jobs: runner });
    await app.ready();
    await scheduleNotifications(runner, config);
    const created = { app, db, runner, pool };
    instances.add(created);
    return created;
  }

  async function stop(instance: Instance): Promise<void> {
    instances.delete(instance);
    await instance.app.close();
    await instance.pool.close();
    await instance.runner.close();
    await instance.db.close();
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    for (const running of [...instances]) await stop(running);
    for (const job of notificationJobs) {
      const queue = new Queue(job.name, { connection: { url: REDIS_TEST_URL }, prefix });
      await queue.obliterate({ force: true });
      await queue.close();
    }
    await receiver.close();
    await scratch.drop();
  });

  it('emits due-soon once across two daemons and a restart', async () => {
    let a = await instance();
    const b = await instance();
    await seedControlLibrary(a.db.em());
    await createOrg(a.db.em(), { orgId: 'acme', name: 'Acme' });
    const request = (target: Instance, method: 'GET' | 'POST', url: string, payload?: object) =>
      target.app.inject({ method, url, headers: { authorization: `Bearer ${ADMIN_KEY}` }, payload });
    const created = await request(a, 'POST', `${ORG}/webhooks`, {
      url: receiver.url,
      events: ['item.due_soon'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const evidence = await request(b, 'POST', `${ORG}/controls/A.2.3/evidence`, {
      type: 'link',
      title: 'Current policy',
      fileUrl: 'https://example.com/now',
      expiresAt: at(3),
    });
    expect(evidence.statusCode, evidence.body).toBe(201);

    // Both daemons scan at once, through their workers, as their schedules may.
    await Promise.all([
      a.runner.run(dueScanJob, {}),
      b.runner.run(dueScanJob, {}),
      a.runner.run(dueScanJob, {}),
      b.runner.run(dueScanJob, {}),
    ]);
    await receiver.waitFor(ofType('item.due_soon'));
    await settle();
    expect(receiver.received.filter(ofType('item.due_soon'))).toHaveLength(1);

    // One daemon restarts and scans again.
    await stop(a);
    a = await instance();
    await Promise.all([a.runner.run(dueScanJob, {}), b.runner.run(dueScanJob, {})]);
    await settle();
    expect(receiver.received.filter(ofType('item.due_soon'))).toHaveLength(1);
    const [{ count }] = await a.db
      .em()
      .execute<{ count: number }[]>('select count(*)::int as count from notification_emissions');
    expect(count).toBe(1);
    const log = await request(b, 'GET', `${ORG}/webhooks/${created.json().webhookId}/deliveries`);
    expect(log.json().deliveries).toMatchObject([
      { type: 'item.due_soon', attempt: 1, outcome: 'delivered' },
    ]);
  });
});
