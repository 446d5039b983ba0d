import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';

describe.each(dbKinds)('the AI risk register (%s)', (kind) => {
  let t: TestApp;
  let approver: string;
  let editor: string;
  let systemId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await addMember(t, 'acme', { email: 'ada@example.com', name: 'Ada Approver', role: 'approver' });
    await addMember(t, 'acme', { email: 'ed@example.com', name: 'Ed Editor', role: 'editor' });
    approver = await signIn(t, 'ada@example.com', 'correct horse battery');
    editor = await signIn(t, 'ed@example.com', 'correct horse battery');
    const system = await t.request({
      method: 'POST',
      url: `${ORG}/ai-systems`,
      body: {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applicants',
        riskLevel: 'high',
        lifecycleStage: 'deployed',
      },
    });
    systemId = system.json().systemId;
  });
  afterAll(() => t.close());

  const create = async (body: Record<string, unknown>) => {
    const response = await t.request({ method: 'POST', url: `${ORG}/risks`, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const status = (frameworkId: string, requirementId: string, value: string) =>
    t.request({
      method: 'PUT',
      url: `${ORG}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}/status`,
      body: { status: value, reviewer: 'r' },
    });

  it('rates with the default criteria, and takes bands that rate every reachable score', async () => {
    const criteria = (await t.request({ method: 'GET', url: `${ORG}/risk-criteria` })).json();
    expect(criteria).toMatchObject({
      likelihood: { min: 1, max: 5 },
      levels: [
        { level: 'low', min: 1, max: 4 },
        { level: 'medium', min: 5, max: 9 },
        { level: 'high', min: 10, max: 16 },
        { level: 'critical', min: 20, max: 25 },
      ],
      acceptableLevel: 'medium',
      custom: false,
    });
    const risk = await create({
      title: 'Bias in ranking',
      likelihood: 4,
      impact: 5,
      systemIds: ['cv screener'],
    });
    expect(risk).toMatchObject({
      inherent: { score: 20, level: 'critical' },
      residual: { score: 20, level: 'critical' },
      systemIds: [systemId],
      state: 'open',
      acceptance: null,
    });
    const gap = await t.request({
      method: 'PUT',
      url: `${ORG}/risk-criteria`,
      body: {
        levels: [
          { level: 'low', min: 1, max: 4 },
          { level: 'medium', min: 6, max: 9 },
          { level: 'high', min: 10, max: 16 },
          { level: 'critical', min: 20, max: 25 },
        ],
      },
    });
    expect(gap.statusCode).toBe(400);
    expect(gap.json().error.message).toContain('5');
  });

  it('refuses unknown AI systems and requirements, naming them', async () => {
    const response = await t.request({
      method: 'POST',
      url: `${ORG}/risks`,
      body: {
        title: 'x',
        likelihood: 1,
        impact: 1,
        systemIds: ['no such system'],
        treatment: {
          option: 'mitigate',
          requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.99' }],
        },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual({
      unknownSystems: ['no such system'],
      unknownRequirements: [{ frameworkId: 'iso-42001', requirementId: 'A.99' }],
    });
  });

  it('derives treating → treated from the records, through another framework’s record too', async () => {
    // An EU AI Act requirement the crosswalk infers as implemented once every ISO/IEC 42001 control is. The
    // shipped edges all intersect (partial at most), so a source's mapping stated equal gives Art. 16 that.
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
    const controls = (await t.request({ method: 'GET', url: `${ORG}/controls` })).json().controls;
    for (const control of controls) await status('iso-42001', control.controlId, 'implemented');
    const eu = (
      await t.request({
        method: 'GET',
        url: `${ORG}/frameworks/eu-ai-act/requirements?assessment=inferred&status=implemented`,
      })
    ).json();
    const inferred = eu.requirements[0];
    expect(inferred, 'an EU AI Act requirement implemented through the crosswalk').toBeDefined();
    await status('iso-42001', 'A.6.2.4', 'in_progress');
    const risk = await create({
      title: 'Unvalidated model updates',
      likelihood: 3,
      impact: 4,
      residualLikelihood: 1,
      residualImpact: 4,
      treatment: {
        option: 'mitigate',
        requirements: [
          { frameworkId: 'iso-42001', requirementId: 'A.6.2.4' },
          { frameworkId: 'eu-ai-act', requirementId: inferred.requirementId },
        ],
        dueDate: '2020-01-01T00:00:00.000Z',
      },
    });
    expect(risk).toMatchObject({
      state: 'treating',
      treatmentProgress: { implemented: 1, total: 2 },
      treatmentOverdue: true,
    });
    await status('iso-42001', 'A.6.2.4', 'implemented');
    const treated = (await t.request({ method: 'GET', url: `${ORG}/risks/${risk.riskId}` })).json();
    expect(treated).toMatchObject({ state: 'treated', treatmentOverdue: false, residual: { level: 'low' } });
    expect(treated.treatmentProgress.requirements[1]).toMatchObject({
      frameworkId: 'eu-ai-act',
      status: 'implemented',
    });
    const byRequirement = (
      await t.request({ method: 'GET', url: `${ORG}/risks?requirement=iso-42001:A.6.2.4` })
    ).json();
    expect(byRequirement.risks.map((r: { riskId: string }) => r.riskId)).toEqual([risk.riskId]);
  });

  it('needs an acceptance above the acceptable level: people only, stale on a change, expired on its date', async () => {
    const risk = await create({
      title: 'Residual discrimination',
      likelihood: 4,
      impact: 4,
      treatment: { option: 'mitigate', requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.2.2' }] },
    });
    expect(risk.state).toBe('needs_acceptance');
    const url = `${ORG}/risks/${risk.riskId}/acceptance`;
    const body = {
      justification: 'Human review of every rejection',
      expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    };
    const byKey = await t.request({ method: 'POST', url, body });
    expect(byKey.statusCode).toBe(403);
    expect(byKey.json().error.details.reason).toBe('person_required');
    const byEditor = await t.request({
      method: 'POST',
      url,
      body,
      key: null,
      headers: { cookie: editor, origin: ORIGIN },
    });
    expect(byEditor.statusCode).toBe(403);
    const accepted = await t.request({
      method: 'POST',
      url,
      body,
      key: null,
      headers: { cookie: approver, origin: ORIGIN },
    });
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.json()).toMatchObject({
      acceptedBy: { name: 'Ada Approver', email: 'ada@example.com' },
      state: 'valid',
    });
    expect((await t.request({ method: 'GET', url: `${ORG}/risks/${risk.riskId}` })).json().state).toBe(
      'accepted',
    );

    // A descriptive change keeps it; an assessed one makes it stale.
    await t.request({ method: 'PUT', url: `${ORG}/risks/${risk.riskId}`, body: { owner: 'Dana' } });
    expect((await t.request({ method: 'GET', url: `${ORG}/risks/${risk.riskId}` })).json().state).toBe(
      'accepted',
    );
    const changed = (
      await t.request({ method: 'PUT', url: `${ORG}/risks/${risk.riskId}`, body: { impact: 5 } })
    ).json();
    expect(changed).toMatchObject({ state: 'needs_acceptance', acceptance: { state: 'stale' } });

    await t.request({ method: 'POST', url, body, key: null, headers: { cookie: approver, origin: ORIGIN } });
    await t.db
      .em()
      .execute(
        `update risk_acceptances set expires_at = now() - interval '1 day' where risk_id = ? and withdrawn_at is null`,
        [risk.riskId],
      );
    expect((await t.request({ method: 'GET', url: `${ORG}/risks/${risk.riskId}` })).json()).toMatchObject({
      state: 'needs_acceptance',
      acceptance: { state: 'expired' },
    });
    const summary = (await t.request({ method: 'GET', url: `${ORG}/risks/summary` })).json();
    expect(summary.acceptances.expired).toBe(1);
    expect(
      (await t.request({ method: 'DELETE', url, key: null, headers: { cookie: approver, origin: ORIGIN } }))
        .statusCode,
    ).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: `${ORG}/risks/${risk.riskId}` })).json().acceptance,
    ).toBeNull();
  });

  it('changes a risk’s systems while the directory of AI systems must be read (no wait on the embedded database)', async () => {
    const risk = await create({ title: 'Drift', likelihood: 2, impact: 2 });
    // A new system drops the org from the directory: the change below must read it again.
    const system = await t.request({
      method: 'POST',
      url: `${ORG}/ai-systems`,
      body: {
        name: 'Fraud model',
        owner: 'Risk',
        purpose: 'Scores payments',
        riskLevel: 'limited',
        lifecycleStage: 'deployed',
      },
    });
    const changed = await t.request({
      method: 'PUT',
      url: `${ORG}/risks/${risk.riskId}`,
      body: { systemIds: ['fraud model'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().systemIds).toEqual([system.json().systemId]);
  });

  it('treats option accept as needing acceptance whatever the level', async () => {
    const risk = await create({
      title: 'Minor drift',
      likelihood: 1,
      impact: 2,
      treatment: { option: 'accept', requirements: [] },
    });
    expect(risk.state).toBe('needs_acceptance');
  });

  it('summarizes by level and state with both matrices, and pages the register', async () => {
    const summary = (await t.request({ method: 'GET', url: `${ORG}/risks/summary` })).json();
    const list = (await t.request({ method: 'GET', url: `${ORG}/risks?limit=2&offset=1` })).json();
    expect(list).toMatchObject({ limit: 2, offset: 1 });
    expect(list.risks).toHaveLength(2);
    const total = Object.values(summary.counts.byState as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(total).toBe(list.total);
    expect(summary.matrix.inherent[3][4]).toBeGreaterThanOrEqual(1); // likelihood 4, impact 5
    expect(summary.matrix.inherent.flat().reduce((a: number, b: number) => a + b, 0)).toBe(list.total);
    const open = (await t.request({ method: 'GET', url: `${ORG}/risks?state=open` })).json();
    expect(open.risks.every((risk: { state: string }) => risk.state === 'open')).toBe(true);
    const audit = (
      await t.request({ method: 'GET', url: `${ORG}/audit-log?resourceType=risk-acceptance` })
    ).json();
    expect(audit.events[0].actor).toMatchObject({ type: 'user', name: 'Ada Approver' });
  });
});
