import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rollupJobId } from '../../src/features/scores/rollup.job.js';
import { rollupOrgs } from '../../src/features/scores/rollup.service.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { createTestApp, dbKinds, REDIS_TEST_URL, type TestApp } from '../support/app.js';

const counts = (implemented: number, inProgress: number, notStarted: number, notApplicable = 0) => ({
  implemented,
  inProgress,
  notStarted,
  notApplicable,
});

interface Point {
  periodStart: string;
  periodEnd: string;
  asOf: string;
  score: number | null;
  counts: ReturnType<typeof counts>;
}

/**
 * History rebuilt from a change log written at chosen instants (the clock is set, the changes go through
 * the real API). The queue is real BullMQ with no worker on it, so roll-ups happen only when a test runs
 * them, and the on-demand requests can be inspected.
 */
describe.each(dbKinds)('compliance history on %s', (kind) => {
  let t: TestApp;
  const prefix = `test-history-${randomBytes(4).toString('hex')}`;

  const at = (iso: string) => vi.setSystemTime(new Date(iso));
  const setStatus = async (iso: string, controlId: string, status: string) => {
    at(iso);
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/hist/controls/${controlId}/status`,
      body: { status, reviewer: 'alice' },
    });
    expect(res.statusCode).toBe(200);
  };
  const history = async (query: string) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orgs/hist/compliance/history?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { interval: string; from: string; to: string; points: Point[] };
  };
  const summary = (points: Point[]) => points.map((p) => [p.periodStart.slice(0, 10), p.score, p.counts]);

  beforeAll(async () => {
    t = await createTestApp(kind, {
      jobs: () => new BullmqJobRunner({ url: REDIS_TEST_URL, log: pino({ level: 'silent' }), prefix }),
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    at('2026-03-01T10:00:00Z'); // a Sunday
    await t.createOrg('hist');
    await setStatus('2026-03-02T09:00:00Z', 'A.2.2', 'implemented');
    await setStatus('2026-03-02T23:59:59.999Z', 'A.2.3', 'in_progress'); // last instant of the day
    await setStatus('2026-03-03T00:00:00.000Z', 'A.2.4', 'implemented'); // first instant of the next
    at('2026-03-08T23:59:59.999Z'); // the last instant of ISO week 10 (Sunday)
    const excluded = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/hist/controls/A.3.2/applicability',
      body: { applicable: false, justification: 'no such role', reviewer: 'bob' },
    });
    expect(excluded.statusCode).toBe(200);
    await setStatus('2026-03-09T00:00:00.000Z', 'A.2.3', 'implemented'); // Monday: week 11
    await setStatus('2026-03-31T23:59:59.999Z', 'A.3.3', 'implemented'); // end of March
    await setStatus('2026-04-01T00:00:00.000Z', 'A.2.2', 'not_started'); // start of April
    at('2026-04-15T12:00:00Z');
  });
  afterEach(() => at('2026-04-15T12:00:00Z'));
  afterAll(async () => {
    vi.useRealTimers();
    const queue = new Queue('compliance-rollup', { connection: { url: REDIS_TEST_URL }, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
    await t?.close();
  });

  // State after each change, by hand: 38 controls, all not started and applicable at creation.
  const created = counts(0, 0, 38);
  const endMar2 = counts(1, 1, 36); // (1 + 0.5) / 38
  const endMar3 = counts(2, 1, 35); // 2.5 / 38
  const endMar8 = counts(2, 1, 34, 1); // 2.5 / 37
  const endMar9 = counts(3, 0, 34, 1); // 3 / 37
  const endMar31 = counts(4, 0, 33, 1); // 4 / 37
  const april = counts(3, 0, 34, 1);

  it('puts a change at 23:59:59.999 in its UTC day and one at 00:00 in the next', async () => {
    const { points } = await history('from=2026-02-28&to=2026-03-04');
    expect(summary(points)).toEqual([
      ['2026-02-28', null, counts(0, 0, 0)], // before the org existed
      ['2026-03-01', 0, created],
      ['2026-03-02', 3.9, endMar2],
      ['2026-03-03', 6.6, endMar3],
      ['2026-03-04', 6.6, endMar3],
    ]);
    expect(points[2]).toMatchObject({
      periodEnd: '2026-03-03T00:00:00.000Z',
      asOf: '2026-03-03T00:00:00.000Z',
    });
  });

  it('groups by ISO week, Monday to Sunday', async () => {
    const { points, interval } = await history('from=2026-03-04&to=2026-03-20T08:00:00Z&interval=weekly');
    expect(interval).toBe('weekly');
    expect(summary(points)).toEqual([
      ['2026-03-02', 6.8, endMar8],
      ['2026-03-09', 8.1, endMar9],
      ['2026-03-16', 8.1, endMar9],
    ]);
    expect(points[0].periodEnd).toBe('2026-03-09T00:00:00.000Z');
  });

  it('groups by month, with the current month as of now', async () => {
    const { points } = await history('from=2026-02-10&to=2026-04-02&interval=monthly');
    expect(summary(points)).toEqual([
      ['2026-02-01', null, counts(0, 0, 0)],
      ['2026-03-01', 10.8, endMar31],
      ['2026-04-01', 8.1, april],
    ]);
    const current = await history('from=2026-04-01&to=2026-12-31&interval=monthly');
    expect(current.points).toHaveLength(1); // periods that have not begun have no state
    expect(current.points[0]).toMatchObject({
      asOf: '2026-04-15T12:00:00.000Z',
      periodEnd: '2026-05-01T00:00:00.000Z',
    });
  });

  it('defaults to 30 daily points ending today', async () => {
    const { interval, points, to } = await history('');
    expect(interval).toBe('daily');
    expect(points).toHaveLength(30);
    expect(points[0].periodStart).toBe('2026-03-17T00:00:00.000Z');
    expect(points[29]).toMatchObject({
      periodStart: '2026-04-15T00:00:00.000Z',
      asOf: '2026-04-15T12:00:00.000Z',
    });
    expect(to).toBe('2026-04-15T12:00:00.000Z');
    expect(points[29].counts).toEqual(april);
  });

  it('asks for the roll-up once when finished days are not rolled up yet', async () => {
    const queue = new Queue('compliance-rollup', { connection: { url: REDIS_TEST_URL }, prefix });
    try {
      // The route queues it without waiting for Redis: it is there soon after, not necessarily at once.
      await vi.waitFor(
        async () => {
          const job = await queue.getJob(rollupJobId('hist', '2026-04-15'));
          expect(job?.data).toEqual({ orgId: 'hist' });
        },
        { timeout: 15_000, interval: 50 },
      );
    } finally {
      await queue.close();
    }
  });

  it('reads the same history from daily roll-ups, and really reads them', async () => {
    const before = await history('from=2026-02-25&to=2026-04-15');
    const first = await rollupOrgs(t.db.em(), { orgId: 'hist', now: new Date() });
    expect(first).toEqual({ orgs: 1, days: 45 }); // 1 March to 14 April
    expect(await rollupOrgs(t.db.em(), { orgId: 'hist', now: new Date() })).toEqual({ orgs: 1, days: 0 });
    expect(await history('from=2026-02-25&to=2026-04-15')).toEqual(before);

    // A visibly different roll-up row shows up in the answer: finished days come from the table.
    await t.db
      .em()
      .execute(`update compliance_rollups set implemented = 30 where org_id = 'hist' and day = '2026-03-20'`);
    const read = await history('from=2026-03-20&to=2026-03-20');
    expect(read.points[0].counts.implemented).toBe(30);
    await t.db.em().execute(`delete from compliance_rollups where org_id = 'hist' and day >= '2026-03-20'`);
    expect(await rollupOrgs(t.db.em(), { orgId: 'hist', now: new Date() })).toEqual({ orgs: 1, days: 26 });
    expect(await history('from=2026-02-25&to=2026-04-15')).toEqual(before);

    // A hole in the roll-ups is rebuilt from the change log, still exactly.
    await t.db.em().execute(`delete from compliance_rollups where org_id = 'hist' and day = '2026-03-08'`);
    expect(await history('from=2026-02-25&to=2026-04-15')).toEqual(before);
  });

  it('shows a change in today’s point at once, roll-ups or not', async () => {
    await setStatus('2026-04-15T12:00:00Z', 'A.4.2', 'implemented');
    at('2026-04-15T12:00:01Z');
    const { points } = await history('from=2026-04-14');
    expect(points.map((p) => p.counts)).toEqual([april, counts(4, 0, 33, 1)]);
  });

  it.each([
    ['from after to', 'from=2026-04-02&to=2026-04-01'],
    ['an unknown interval', 'interval=hourly'],
    ['a malformed date', 'from=last-week'],
    ['an impossible date', 'from=2026-02-30'],
    ['a date without zone', 'from=2026-02-03T10:00:00'],
    ['too many daily points', 'from=2020-01-01&to=2026-04-01'],
    ['the year 0', 'from=0000-01-01&to=0000-01-02'],
    ['an instant past the year 9999', 'from=9999-12-30&to=9999-12-31T23:00:00-05:00'],
  ])('rejects %s with 400', async (_case, query) => {
    const res = await t.request({ method: 'GET', url: `/api/v1/orgs/hist/compliance/history?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('answers a range in the first century with points of its own, before the org existed', async () => {
    const { points } = await history('from=0050-01-01&to=0050-01-03');
    expect(summary(points)).toEqual(
      ['0050-01-01', '0050-01-02', '0050-01-03'].map((day) => [day, null, counts(0, 0, 0)]),
    );
  });

  it('allows long ranges at a coarser interval, and 404s an unknown org', async () => {
    const res = await history('from=2020-01-01&to=2026-04-01&interval=monthly');
    expect(res.points).toHaveLength(76);
    const missing = await t.request({ method: 'GET', url: '/api/v1/orgs/nope/compliance/history' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('RESOURCE_NOT_FOUND');
  });
});
