import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';
const DAY = 86_400_000;

describe.each(dbKinds)('management reviews (%s)', (kind) => {
  let t: TestApp;
  const periodFrom = new Date(Date.now() - 30 * DAY).toISOString();
  const periodTo = new Date(Date.now() + DAY).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await addMember(t, 'acme', { email: 'ada@example.com', name: 'Ada Approver', role: 'approver' });
    const approver = await signIn(t, 'ada@example.com', 'correct horse battery');
    const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await t.request({
        method: 'POST',
        url,
        body,
        ...(headers.cookie ? { key: null } : {}),
        headers,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json();
    };
    await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.2.2/status`,
      body: { status: 'implemented', reviewer: 'r' },
    });
    const audit = await post(`${ORG}/audits`, {
      title: 'IA 2026',
      frameworkIds: ['iso-42001'],
      leadAuditor: 'Ines',
      plannedStart: new Date(Date.now() - 20 * DAY).toISOString(),
      plannedEnd: new Date(Date.now() - 10 * DAY).toISOString(),
    });
    const major = await post(`${ORG}/audits/${audit.auditId}/findings`, {
      kind: 'major_nonconformity',
      requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }],
      description: 'No validation gate',
    });
    await post(`${ORG}/audits/${audit.auditId}/findings`, {
      kind: 'minor_nonconformity',
      requirements: [],
      description: 'Minor',
    });
    await post(`${ORG}/audits/${audit.auditId}/findings`, {
      kind: 'opportunity',
      requirements: [],
      description: 'Automate evidence',
    });
    await post(
      `${ORG}/audits/${audit.auditId}/findings/${major.findingId}/close`,
      { effective: true, note: 'Gate in place' },
      { cookie: approver, origin: ORIGIN },
    );
    await t.request({ method: 'PUT', url: `${ORG}/audits/${audit.auditId}`, body: { state: 'in_progress' } });
    await t.request({
      method: 'PUT',
      url: `${ORG}/audits/${audit.auditId}`,
      body: { state: 'completed', conclusion: 'Conforms with one minor' },
    });
    await post(`${ORG}/risks`, { title: 'Bias', likelihood: 4, impact: 5 });
  });
  afterAll(() => t.close());

  it('fills the inputs from the records for the period', async () => {
    const created = await t.request({
      method: 'POST',
      url: `${ORG}/management-reviews`,
      body: {
        heldAt: new Date().toISOString(),
        attendees: ['CEO', 'CISO'],
        period: { from: periodFrom, to: periodTo },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const review = created.json();
    expect(review).toMatchObject({ state: 'open', contentHash: null, attendees: ['CEO', 'CISO'] });
    expect(review.inputs.nonconformities).toEqual({
      opened: 2,
      closed: 1,
      openAtEnd: 1,
      byKind: { major_nonconformity: 1, minor_nonconformity: 1 },
    });
    expect(review.inputs.audits.completed).toEqual([
      expect.objectContaining({
        conclusion: 'Conforms with one minor',
        findingsByKind: { major_nonconformity: 1, minor_nonconformity: 1, opportunity: 1 },
      }),
    ]);
    expect(review.inputs.opportunities).toEqual([
      expect.objectContaining({ description: 'Automate evidence' }),
    ]);
    expect(review.inputs.risks.byLevel.critical).toBe(1);
    const iso = review.inputs.scores.find(
      (score: { frameworkId: string }) => score.frameworkId === 'iso-42001',
    );
    const current = (await t.request({ method: 'GET', url: `${ORG}/compliance` })).json().score;
    expect(iso.to).toBe(current);
    expect(iso.from).toBeNull(); // the org did not exist yet at the period's start
    expect(review.inputs.scores.length).toBeGreaterThanOrEqual(5);
  });

  it('takes notes and decisions while open, freezes on close, and carries decisions into the next review and the agenda', async () => {
    const [review] = (await t.request({ method: 'GET', url: `${ORG}/management-reviews` })).json().reviews;
    const url = `${ORG}/management-reviews/${review.reviewId}`;
    const bad = await t.request({ method: 'PUT', url, body: { notes: { nonsense: 'x' } } });
    expect(bad.statusCode).toBe(400);
    const due = new Date(Date.now() + 14 * DAY).toISOString();
    const recorded = await t.request({
      method: 'PUT',
      url,
      body: {
        notes: { risks: 'Bias risk needs a treatment plan' },
        decisions: [{ text: 'Plan bias treatment', owner: 'Dana', dueDate: due }],
      },
    });
    expect(recorded.json()).toMatchObject({
      notes: { risks: 'Bias risk needs a treatment plan' },
      decisions: [{ owner: 'Dana' }],
    });
    const closed = (await t.request({ method: 'POST', url: `${url}/close` })).json();
    expect(closed.state).toBe('closed');
    expect(closed.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.request({ method: 'PUT', url, body: { notes: { risks: 'x' } } })).statusCode).toBe(409);
    expect((await t.request({ method: 'POST', url: `${url}/close` })).statusCode).toBe(409);

    const next = (
      await t.request({
        method: 'POST',
        url: `${ORG}/management-reviews`,
        body: {
          heldAt: new Date(Date.now() + 60_000).toISOString(),
          attendees: ['CEO'],
          period: { from: periodFrom, to: periodTo },
        },
      })
    ).json();
    expect(next.inputs.earlierActions).toEqual([
      expect.objectContaining({ text: 'Plan bias treatment', owner: 'Dana', overdue: false }),
    ]);
    const agenda = (await t.request({ method: 'GET', url: `${ORG}/due?kind=decision_due` })).json();
    expect(agenda.items).toEqual([
      expect.objectContaining({
        owner: 'Dana',
        dueAt: due,
        resource: { type: 'management-review', id: `${review.reviewId}#0` },
      }),
    ]);
  });
});
