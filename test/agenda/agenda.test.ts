import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

describe.each(dbKinds)('what is due (%s)', (kind) => {
  let t: TestApp;

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
    await post(`${ORG}/controls/A.2.2/evidence`, {
      type: 'document',
      title: 'AI policy v1',
      fileUrl: 'https://example.com/p',
      expiresAt: at(-2),
    });
    await post(`${ORG}/controls/A.2.3/evidence`, {
      type: 'link',
      title: 'Policy portal',
      fileUrl: 'https://example.com/q',
      expiresAt: at(20),
    });
    const treated = await post(`${ORG}/risks`, {
      title: 'Unvalidated updates',
      owner: 'Dana',
      likelihood: 3,
      impact: 3,
      reviewDate: at(60),
      treatment: {
        option: 'mitigate',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }],
        dueDate: at(-1),
      },
    });
    const accepted = await post(`${ORG}/risks`, {
      title: 'Residual bias',
      owner: 'Omar',
      likelihood: 4,
      impact: 4,
      treatment: { option: 'accept', requirements: [] },
    });
    await post(
      `${ORG}/risks/${accepted.riskId}/acceptance`,
      { justification: 'Human review', expiresAt: at(30) },
      { cookie: approver, origin: ORIGIN },
    );
    const audit = await post(`${ORG}/audits`, {
      title: 'IA 2026',
      frameworkIds: ['iso-42001'],
      leadAuditor: 'Ines',
      plannedStart: at(-10),
      plannedEnd: at(-5),
    });
    await post(`${ORG}/audits/${audit.auditId}/findings`, {
      kind: 'minor_nonconformity',
      requirements: [],
      description: 'Log retention unclear',
      owner: 'Dana',
      dueDate: at(10),
    });
    expect(treated.state).toBe('treating');
  });
  afterAll(() => t.close());

  const due = async (query = '') => {
    const response = await t.request({ method: 'GET', url: `${ORG}/due${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('gathers every dated obligation, soonest first, overdue ones flagged', async () => {
    const agenda = await due();
    expect(agenda.items.map((item: { kind: string }) => item.kind)).toEqual([
      'evidence_expiry',
      'risk_treatment',
      'finding_due',
      'evidence_expiry',
      'acceptance_expiry',
      'risk_review',
    ]);
    expect(agenda.items.map((item: { overdue: boolean }) => item.overdue)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(agenda.total).toBe(6);
    expect(agenda.items[1]).toMatchObject({
      owner: 'Dana',
      resource: { type: 'risk' },
      title: 'Treatment of "Unvalidated updates"',
    });
  });

  it('filters by owner, kind, overdue and dates, and pages', async () => {
    expect((await due('?owner=dana')).items.map((item: { kind: string }) => item.kind)).toEqual([
      'risk_treatment',
      'finding_due',
      'risk_review',
    ]);
    expect((await due('?kind=evidence_expiry')).total).toBe(2);
    expect((await due('?overdue=true')).total).toBe(2);
    expect((await due(`?from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(25))}`)).total).toBe(2);
    const page = await due('?limit=2&offset=2');
    expect(page).toMatchObject({ total: 6, limit: 2, offset: 2 });
    expect(page.items.map((item: { kind: string }) => item.kind)).toEqual(['finding_due', 'evidence_expiry']);
    expect((await t.request({ method: 'GET', url: `${ORG}/due?kind=nope` })).statusCode).toBe(400);
  });

  it('follows the records: a treated risk leaves the agenda', async () => {
    await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.6.2.4/status`,
      body: { status: 'implemented', reviewer: 'r' },
    });
    expect((await due('?kind=risk_treatment')).total).toBe(0);
  });
});
