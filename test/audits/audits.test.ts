import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';

describe.each(dbKinds)('internal audits, findings and the nonconformity cap (%s)', (kind) => {
  let t: TestApp;
  let approver: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await addMember(t, 'acme', { email: 'ada@example.com', name: 'Ada Approver', role: 'approver' });
    approver = await signIn(t, 'ada@example.com', 'correct horse battery');
  });
  afterAll(() => t.close());

  const get = async (url: string) => (await t.request({ method: 'GET', url })).json();
  const plan = async () => {
    const audit = await t.request({
      method: 'POST',
      url: `${ORG}/audits`,
      body: {
        title: 'Internal audit 2026',
        frameworkIds: ['iso-42001', 'eu-ai-act'],
        leadAuditor: 'Ines Internal',
        plannedStart: '2026-11-01T00:00:00.000Z',
        plannedEnd: '2026-11-15T00:00:00.000Z',
      },
    });
    expect(audit.statusCode, audit.body).toBe(201);
    return audit.json();
  };

  it('moves an audit planned → in_progress → completed, with a conclusion, and no further', async () => {
    const audit = await plan();
    expect(audit).toMatchObject({ state: 'planned', findings: { open: 0, closed: 0 } });
    const url = `${ORG}/audits/${audit.auditId}`;
    expect(
      (await t.request({ method: 'PUT', url, body: { state: 'completed', conclusion: 'x' } })).statusCode,
    ).toBe(409);
    expect((await t.request({ method: 'PUT', url, body: { state: 'in_progress' } })).json().state).toBe(
      'in_progress',
    );
    const noConclusion = await t.request({ method: 'PUT', url, body: { state: 'completed' } });
    expect(noConclusion.statusCode).toBe(400);
    const done = await t.request({
      method: 'PUT',
      url,
      body: { state: 'completed', conclusion: 'The AIMS conforms.' },
    });
    expect(done.json()).toMatchObject({ state: 'completed', conclusion: 'The AIMS conforms.' });
    expect((await t.request({ method: 'PUT', url, body: { title: 'y' } })).statusCode).toBe(409);
    const finding = await t.request({
      method: 'POST',
      url: `${url}/findings`,
      body: { kind: 'observation', requirements: [], description: 'd' },
    });
    expect(finding.statusCode).toBe(409);
    const unknown = await t.request({
      method: 'POST',
      url: `${ORG}/audits`,
      body: {
        title: 't',
        frameworkIds: ['nope'],
        leadAuditor: 'l',
        plannedStart: '2026-01-01T00:00:00Z',
        plannedEnd: '2026-01-02T00:00:00Z',
      },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('caps a requirement at in_progress while a major nonconformity is open, everywhere, until an effective check', async () => {
    await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.6.2.4/status`,
      body: { status: 'implemented', reviewer: 'r' },
    });
    const scoreBefore = (await get(`${ORG}/compliance`)).score;
    const audit = await plan();
    const opened = await t.request({
      method: 'POST',
      url: `${ORG}/audits/${audit.auditId}/findings`,
      body: {
        kind: 'major_nonconformity',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }],
        description: 'Models reach production without the documented validation.',
        dueDate: '2026-12-31T00:00:00.000Z',
      },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const finding = opened.json();
    expect(finding).toMatchObject({
      state: 'open',
      caps: true,
      requirements: [{ requirementId: 'A.6.2.4', status: 'in_progress' }],
    });

    const control = await get(`${ORG}/controls/A.6.2.4`);
    expect(control.status).toBe('in_progress');
    const requirement = await get(`${ORG}/frameworks/iso-42001/requirements/A.6.2.4`);
    expect(requirement).toMatchObject({
      status: 'in_progress',
      findings: [{ findingId: finding.findingId, kind: 'major_nonconformity', state: 'open' }],
    });
    expect((await get(`${ORG}/compliance`)).score).toBeLessThan(scoreBefore);
    const gaps = (await get(`/api/v1/cte/gaps/iso-42001?orgId=acme`)).gaps;
    expect(gaps.find((gap: { controlId: string }) => gap.controlId === 'A.6.2.4')).toBeDefined();

    // Keys cannot close; an ineffective check is kept and the finding stays open.
    const close = `${ORG}/audits/${audit.auditId}/findings/${finding.findingId}/close`;
    const byKey = await t.request({ method: 'POST', url: close, body: { effective: true, note: 'n' } });
    expect(byKey.json().error.details.reason).toBe('person_required');
    const ineffective = await t.request({
      method: 'POST',
      url: close,
      key: null,
      headers: { cookie: approver, origin: ORIGIN },
      body: { effective: false, note: 'Two models still skipped validation' },
    });
    expect(ineffective.json()).toMatchObject({
      state: 'open',
      caps: true,
      checks: [{ effective: false, checkedBy: { name: 'Ada Approver' } }],
    });
    expect((await get(`${ORG}/controls/A.6.2.4`)).status).toBe('in_progress');

    await t.request({
      method: 'PUT',
      url: `${ORG}/audits/${audit.auditId}/findings/${finding.findingId}`,
      body: { rootCause: 'No gate in the pipeline', correctiveAction: 'Validation gate added' },
    });
    const effective = await t.request({
      method: 'POST',
      url: close,
      key: null,
      headers: { cookie: approver, origin: ORIGIN },
      body: { effective: true, note: 'Gate blocks unvalidated models' },
    });
    expect(effective.json()).toMatchObject({
      state: 'closed',
      caps: false,
      rootCause: 'No gate in the pipeline',
    });
    expect((await get(`${ORG}/controls/A.6.2.4`)).status).toBe('implemented');
    expect((await get(`${ORG}/frameworks/iso-42001/requirements/A.6.2.4`)).findings).toBeUndefined();
    expect((await get(`${ORG}/compliance`)).score).toBe(scoreBefore);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `${ORG}/audits/${audit.auditId}/findings/${finding.findingId}`,
          body: { owner: 'x' },
        })
      ).statusCode,
    ).toBe(409);
  });

  it('caps an inferred requirement too, and a minor nonconformity caps nothing', async () => {
    const controls = (await get(`${ORG}/controls`)).controls;
    for (const control of controls) {
      await t.request({
        method: 'PUT',
        url: `${ORG}/controls/${control.controlId}/status`,
        body: { status: 'implemented', reviewer: 'r' },
      });
    }
    // The shipped crosswalk's edges all intersect, so nothing is inferred implemented from it alone: a mapping
    // stated equal by a source (Art. 16 has no shipped edge) gives one requirement full credit.
    const mapped = await t.request({
      method: 'POST',
      url: '/api/v1/cte/mappings',
      body: {
        sourceFrameworkId: 'iso-42001',
        sourceId: 'A.2.2',
        targetFrameworkId: 'eu-ai-act',
        targetId: 'Art. 16',
        relationship: 'equal',
        rationale: 'A mapping of the test: the two are read as the same duty.',
        source: 'Test mapping guide',
      },
    });
    expect(mapped.statusCode).toBe(201);
    const inferred = (
      await get(`${ORG}/frameworks/eu-ai-act/requirements?assessment=inferred&status=implemented`)
    ).requirements[0];
    expect(inferred.requirementId).toBe('Art. 16');
    const audit = await plan();
    const minor = await t.request({
      method: 'POST',
      url: `${ORG}/audits/${audit.auditId}/findings`,
      body: {
        kind: 'minor_nonconformity',
        requirements: [{ frameworkId: 'eu-ai-act', requirementId: inferred.requirementId }],
        description: 'd',
      },
    });
    expect(minor.json().caps).toBe(false);
    expect(
      (await get(`${ORG}/frameworks/eu-ai-act/requirements/${encodeURIComponent(inferred.requirementId)}`))
        .status,
    ).toBe('implemented');
    await t.request({
      method: 'POST',
      url: `${ORG}/audits/${audit.auditId}/findings`,
      body: {
        kind: 'major_nonconformity',
        requirements: [{ frameworkId: 'eu-ai-act', requirementId: inferred.requirementId }],
        description: 'd',
      },
    });
    expect(
      (await get(`${ORG}/frameworks/eu-ai-act/requirements/${encodeURIComponent(inferred.requirementId)}`))
        .status,
    ).toBe('in_progress');
    const open = (await get(`${ORG}/findings?state=open`)).findings;
    expect(open.map((finding: { kind: string }) => finding.kind).sort()).toEqual([
      'major_nonconformity',
      'minor_nonconformity',
    ]);
    const events = (await get(`${ORG}/audit-log?resourceType=finding`)).events;
    expect(events.length).toBeGreaterThanOrEqual(3);
  });
});
