import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryConflicts } from '../../src/features/cte/conflicts.js';
import { pairwiseCoverage } from '../../src/features/cte/coverage.js';
import { computeGaps, type GapContext } from '../../src/features/cte/gaps.js';
import { type ControlStatus, type OrgControlState, propagateCoverage } from '../../src/features/cte/graph.js';
import { BUILTIN_FRAMEWORK_IDS, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { ISO_42001 } from '../../src/shared/vocabulary.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const CTE = '/api/v1/cte';
const library = loadBuiltinLibrary();

interface Gap {
  controlId: string;
  priority: 'critical' | 'important' | 'minor';
  status: string;
  recommendation: string;
}

describe.each(dbKinds)('CTE analysis API on %s', (kind) => {
  let t: TestApp;
  const org = `${kind}-analysis`;
  const other = `${kind}-other`;
  let tenantKey: string;
  /** What the org's controls are set to, as the oracle sees it. */
  const statuses = new Map<string, OrgControlState>();
  const context: GapContext & { aiSystemRiskLevels: string[] } = { aiSystemRiskLevels: [], orgId: org };

  const get = (url: string, key?: string | null) => t.request({ method: 'GET', url, key });
  const gapsOf = async (frameworkId: string) => {
    const res = await get(`${CTE}/gaps/${frameworkId}?orgId=${org}`);
    expect(res.statusCode).toBe(200);
    return res.json() as { frameworkId: string; gaps: Gap[]; summary: Record<string, number> };
  };
  const expectedGaps = (frameworkId: string) =>
    computeGaps(library, propagateCoverage(library, statuses), frameworkId, context as GapContext);

  async function setStatus(controlId: string, status: ControlStatus) {
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${org}/controls/${controlId}/status`,
      body: { status, reviewer: 'alice' },
    });
    expect(res.statusCode).toBe(200);
    statuses.set(controlId, { status, applicable: statuses.get(controlId)?.applicable ?? true });
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(org);
    await t.createOrg(other);
    tenantKey = await t.createKey(org, ['read']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives a new org every requirement as a gap, exactly shaped, summary equal to the list', async () => {
    for (const frameworkId of BUILTIN_FRAMEWORK_IDS) {
      const report = await gapsOf(frameworkId);
      expect(Object.keys(report)).toEqual(['frameworkId', 'gaps', 'summary']);
      expect(report.frameworkId).toBe(frameworkId);
      // Every requirement but the provisions that bind no organization (penalties, entry into force).
      const duties = library
        .framework(frameworkId)!
        .requirements.filter((requirement) => !requirement.bindsNoOne);
      expect(report.gaps).toHaveLength(duties.length);
      const counted = { critical: 0, important: 0, minor: 0 };
      for (const gap of report.gaps) {
        // The spec's four members and none further, unless a client asks for more (`include`).
        expect(Object.keys(gap)).toEqual(['controlId', 'priority', 'status', 'recommendation']);
        expect(gap.recommendation.length).toBeGreaterThan(40);
        counted[gap.priority] += 1;
      }
      expect(report.summary).toEqual(counted);
      expect(report).toEqual(expectedGaps(frameworkId));
    }
    const iso = await gapsOf(ISO_42001);
    expect(new Set(iso.gaps.map((gap) => gap.status))).toEqual(new Set(['not_started']));
  });

  it('closes and narrows gaps as controls are implemented', async () => {
    const reached = library.edges
      .filter((edge) => edge.target.frameworkId === ISO_42001 && edge.target.requirementId === 'A.6.2.8')
      .filter((edge) => edge.source.frameworkId === 'eu-ai-act')
      .map((edge) => edge.source.requirementId);
    // A.6.2.8 is the one ISO control mapped to each of them, by an intersect: a partial overlap.
    expect(reached.sort()).toEqual(['Art. 12', 'Art. 19', 'Art. 26(6)']);
    const before = await gapsOf('eu-ai-act');
    for (const id of reached)
      expect(before.gaps.find((gap) => gap.controlId === id)?.status).toBe('uncovered');

    await setStatus('A.6.2.8', 'in_progress');
    const started = await gapsOf('eu-ai-act');
    for (const id of reached)
      expect(started.gaps.find((gap) => gap.controlId === id)).toMatchObject({
        status: 'partial',
        recommendation: expect.stringMatching(/^Finish implementing iso-42001 A\.6\.2\.8 /),
      });

    await setStatus('A.6.2.8', 'implemented');
    const iso = await gapsOf(ISO_42001);
    expect(iso.gaps.map((gap) => gap.controlId)).not.toContain('A.6.2.8');
    expect(iso.gaps).toHaveLength(37);
    const after = await gapsOf('eu-ai-act');
    // Implemented, it covers them only in part: each stays a partial gap that asks for the rest.
    for (const id of reached)
      expect(after.gaps.find((gap) => gap.controlId === id)).toMatchObject({
        status: 'partial',
        recommendation: expect.stringContaining('only in part'),
      });
    expect(after.gaps).toHaveLength(before.gaps.length);
    expect(after).toEqual(expectedGaps('eu-ai-act'));

    await setStatus('A.2.2', 'in_progress');
    await setStatus('A.5.2', 'implemented');
    const progressed = await gapsOf(ISO_42001);
    expect(progressed.gaps.find((gap) => gap.controlId === 'A.2.2')).toMatchObject({
      status: 'in_progress',
      recommendation: expect.stringMatching(/^Finish implementing A\.2\.2/),
    });
    expect(progressed.gaps).toHaveLength(36);
    for (const frameworkId of BUILTIN_FRAMEWORK_IDS)
      expect(await gapsOf(frameworkId)).toEqual(expectedGaps(frameworkId));
  });

  it('drops excluded controls and ranks by the risk of the org’s AI systems', async () => {
    const excluded = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${org}/controls/A.10.4/applicability`,
      body: { applicable: false, justification: 'No customers', reviewer: 'bob' },
    });
    expect(excluded.statusCode).toBe(200);
    statuses.set('A.10.4', { status: 'not_started', applicable: false });
    expect((await gapsOf(ISO_42001)).gaps.map((gap) => gap.controlId)).not.toContain('A.10.4');

    const calm = await gapsOf('eu-ai-act');
    const system = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${org}/ai-systems`,
      body: { name: 'Credit scoring', owner: 'risk', purpose: 'Scores loan applications', riskLevel: 'high' },
    });
    expect(system.statusCode).toBe(201);
    context.aiSystemRiskLevels = ['high'];
    const risky = await gapsOf('eu-ai-act');
    expect(risky).toEqual(expectedGaps('eu-ai-act'));
    expect(risky.summary.critical).toBeGreaterThan(calm.summary.critical);
    expect(risky.summary.critical + risky.summary.important + risky.summary.minor).toBe(risky.gaps.length);
  });

  it('reopens an implemented control whose evidence has all expired', async () => {
    const evidence = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${org}/controls/A.5.2/evidence`,
      body: {
        type: 'link',
        title: 'Impact assessment 2020',
        fileUrl: 'https://docs.example.com/ia-2020',
        effectiveDate: '2020-01-01',
        expiresAt: '2021-01-01',
      },
    });
    expect(evidence.statusCode).toBe(201);
    statuses.set('A.5.2', { status: 'implemented', applicable: true, evidenceExpired: true });
    const iso = await gapsOf(ISO_42001);
    expect(iso.gaps.find((gap) => gap.controlId === 'A.5.2')).toMatchObject({
      status: 'implemented',
      recommendation: expect.stringMatching(/^Renew the expired evidence on A\.5\.2/),
    });
    expect(iso).toEqual(expectedGaps(ISO_42001));
    // Coverage agrees with the gap: the control and what it reaches count as in progress.
    const own = (await get(`${CTE}/coverage/iso-42001/A.5.2?orgId=${org}`)).json();
    expect(own).toMatchObject({
      status: 'partial',
      strength: 0.5,
      orgStatus: 'implemented',
      evidenceExpired: true,
    });
    const art27 = (
      await get(`${CTE}/coverage/eu-ai-act/${encodeURIComponent('Art. 27')}?orgId=${org}`)
    ).json();
    // Its base set: three Annex A controls and ISO 42001's impact-assessment clauses 6.1.4 and 8.4.
    expect(art27.joint).toMatchObject({ remaining: ['A.5.2', 'A.5.4', 'A.5.5', '6.1.4', '8.4'] });
    expect(
      art27.justifications.find((why: { controlId: string }) => why.controlId === 'A.5.2'),
    ).toMatchObject({
      controlStatus: 'implemented',
      evidenceExpired: true,
    });
    for (const frameworkId of BUILTIN_FRAMEWORK_IDS)
      expect(await gapsOf(frameworkId)).toEqual(expectedGaps(frameworkId));
  });

  it('reports coverage per framework with consistent arithmetic and the pairwise matrix', async () => {
    const res = await get(`${CTE}/coverage?orgId=${org}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.orgId).toBe(org);
    expect(body.baseFrameworkId).toBe(ISO_42001);
    expect(body.frameworks.map((row: { frameworkId: string }) => row.frameworkId)).toEqual([
      ...BUILTIN_FRAMEWORK_IDS,
    ]);
    for (const row of body.frameworks) {
      const size = library.framework(row.frameworkId)!.requirements.length;
      expect(row.covered + row.partial + row.uncovered).toBe(row.total);
      expect(row.excluded).toBe(0);
      expect(row.total + row.notApplicable).toBe(size);
      expect(row.coverage).toBeCloseTo((row.covered + 0.5 * row.partial) / row.total, 4);
    }
    const iso = body.frameworks[0];
    // A.6.2.8 implemented, A.2.2 in progress, A.5.2 implemented with expired evidence (so in progress),
    // A.10.4 excluded.
    expect(iso).toMatchObject({ total: 37, covered: 1, partial: 2, uncovered: 34, notApplicable: 1 });
    expect(iso.coverage).toBe(Math.round((2 / 37) * 10_000) / 10_000);
    expect(
      body.frameworks.find((row: { frameworkId: string }) => row.frameworkId === 'eu-ai-act').partial,
    ).toBeGreaterThan(0);
    expect(body.pairwise).toHaveLength(BUILTIN_FRAMEWORK_IDS.length * (BUILTIN_FRAMEWORK_IDS.length - 1));
    expect(body.pairwise).toEqual(pairwiseCoverage(library));
    const fromIso = body.pairwise.find(
      (pair: { from: string; to: string }) => pair.from === 'iso-42001' && pair.to === 'nist-ai-rmf',
    );
    expect(fromIso.coverage).toBeGreaterThan(0);
  });

  it('lists one framework requirement by requirement, matching the summary', async () => {
    const summary = (await get(`${CTE}/coverage?orgId=${org}`))
      .json()
      .frameworks.find((row: { frameworkId: string }) => row.frameworkId === 'eu-ai-act');
    const res = await get(`${CTE}/coverage/eu-ai-act?orgId=${org}`);
    expect(res.statusCode).toBe(200);
    const { requirements, ...counts } = res.json();
    expect(counts).toEqual({ orgId: org, ...summary });
    expect(requirements).toHaveLength(60);
    for (const status of ['covered', 'partial', 'uncovered'] as const) {
      expect(requirements.filter((row: { status: string }) => row.status === status)).toHaveLength(
        summary[status],
      );
    }
    const art12 = requirements.find((row: { requirementId: string }) => row.requirementId === 'Art. 12');
    // Its one mapped control is implemented, but an analyst's intersect covers it only in part.
    expect(art12).toMatchObject({
      status: 'partial',
      coveredBy: ['A.6.2.8'],
      joint: { controls: ['A.6.2.8'], remaining: [], inferred: true, canCover: false, status: 'partial' },
    });
    // Art. 27 is mapped to A.5.2, A.5.4, A.5.5 and clauses 6.1.4 and 8.4; only A.5.2 is implemented, and its
    // evidence has expired: as in progress it starts no set, and reaches Art. 27 over one partial hop (0.25).
    const art27 = requirements.find((row: { requirementId: string }) => row.requirementId === 'Art. 27');
    expect(art27).toMatchObject({
      status: 'partial',
      strength: 0.25,
      coveredBy: ['A.5.2'],
      joint: {
        controls: ['A.5.2', 'A.5.4', 'A.5.5', '6.1.4', '8.4'],
        remaining: ['A.5.2', 'A.5.4', 'A.5.5', '6.1.4', '8.4'],
        status: 'uncovered',
      },
    });
  });

  it('explains a requirement: which controls and which edges, and what would cover it', async () => {
    const res = await get(`${CTE}/coverage/eu-ai-act/${encodeURIComponent('Art. 12')}?orgId=${org}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ frameworkId: 'eu-ai-act', requirementId: 'Art. 12', status: 'partial' });
    expect(body.joint).toEqual({
      controls: ['A.6.2.8'],
      remaining: [],
      excluded: [],
      inferred: true,
      canCover: false,
      status: 'partial',
    });
    const viaLogs = body.justifications.find((j: { controlId: string }) => j.controlId === 'A.6.2.8');
    expect(viaLogs).toMatchObject({ controlStatus: 'implemented', credit: 'joint', strength: 0.5 });
    expect(viaLogs.path).toHaveLength(1);
    expect(viaLogs.path[0]).toMatchObject({
      from: { frameworkId: 'iso-42001', requirementId: 'A.6.2.8' },
      to: { frameworkId: 'eu-ai-act', requirementId: 'Art. 12' },
      relationship: 'intersect',
      text: 'A.6.2.8 intersects with Art. 12',
    });
    expect(body.candidates[0]).toMatchObject({ controlId: 'A.6.2.8', credit: 'joint', strength: 0.5 });
    const own = (await get(`${CTE}/coverage/iso-42001/A.2.2?orgId=${org}`)).json();
    expect(own).toMatchObject({ status: 'partial', orgStatus: 'in_progress', strength: 0.5, candidates: [] });
    expect(own.joint).toBeUndefined();
  });

  it('reports requirements whose mapped controls are all excluded, not covered', async () => {
    const excluded = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${org}/controls/A.6.2.8/applicability`,
      body: { applicable: false, justification: 'No AI system of ours logs events', reviewer: 'bob' },
    });
    expect(excluded.statusCode).toBe(200);
    statuses.set('A.6.2.8', { status: 'implemented', applicable: false });
    const gaps = await gapsOf('eu-ai-act');
    expect(gaps).toEqual(expectedGaps('eu-ai-act'));
    for (const id of ['Art. 12', 'Art. 19', 'Art. 26(6)']) {
      expect(gaps.gaps.find((gap) => gap.controlId === id)).toMatchObject({
        status: 'excluded',
        recommendation: expect.stringMatching(
          /^Every iso-42001 control mapped to .* is marked not applicable \(A\.6\.2\.8 /,
        ),
      });
    }
    const summary = (await get(`${CTE}/coverage?orgId=${org}`))
      .json()
      .frameworks.find((row: { frameworkId: string }) => row.frameworkId === 'eu-ai-act');
    expect(summary.excluded).toBe(3);
    const why = (await get(`${CTE}/coverage/eu-ai-act/${encodeURIComponent('Art. 12')}?orgId=${org}`)).json();
    expect(why).toMatchObject({
      status: 'uncovered',
      justifications: [],
      joint: { controls: [], excluded: ['A.6.2.8'], status: 'excluded' },
    });
  });

  it('lists curated and computed conflicts, with filters', async () => {
    const res = await get(`${CTE}/conflicts`);
    expect(res.statusCode).toBe(200);
    const { conflicts } = res.json();
    // A platform key naming no org: every conflict of the library.
    expect(conflicts).toEqual(libraryConflicts(library));
    // The org's own view leaves out conflicts that touch a requirement it excluded (A.6.2.8, A.10.4).
    const applies = (ref: { frameworkId: string; requirementId: string }) =>
      ref.frameworkId !== ISO_42001 || statuses.get(ref.requirementId)?.applicable !== false;
    const mine = libraryConflicts(library).filter((conflict) => conflict.requirements.every(applies));
    expect(mine.length).toBeLessThan(conflicts.length);
    expect((await get(`${CTE}/conflicts`, tenantKey)).json().conflicts).toEqual(mine);
    expect((await get(`${CTE}/conflicts?orgId=${org}`)).json().conflicts).toEqual(mine);
    expect(new Set(conflicts.map((c: { source: string }) => c.source))).toEqual(
      new Set(['curated', 'computed']),
    );
    for (const conflict of conflicts) {
      expect(conflict.requirements.length).toBeGreaterThanOrEqual(2);
      expect(conflict.resolution.length).toBeGreaterThan(20);
    }
    const gdpr = (await get(`${CTE}/conflicts?frameworkId=gdpr&severity=high`)).json().conflicts;
    expect(gdpr.length).toBeGreaterThan(0);
    expect(gdpr).toEqual(
      conflicts.filter(
        (c: { severity: string; requirements: { frameworkId: string }[] }) =>
          c.severity === 'high' && c.requirements.some((r) => r.frameworkId === 'gdpr'),
      ),
    );
    const tensions = (await get(`${CTE}/conflicts?kind=tension`)).json().conflicts;
    expect(tensions.length).toBeGreaterThan(0);
    expect(tensions.every((c: { kind: string }) => c.kind === 'tension')).toBe(true);
    const badKind = await get(`${CTE}/conflicts?kind=feud`);
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().error.details.fields[0].field).toBe('querystring.kind');
    const unknown = await get(`${CTE}/conflicts?frameworkId=sox`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Framework not found');
  });

  it('adds where each gap’s status comes from only when asked, and caches the two reports apart', async () => {
    const plain = await gapsOf('eu-ai-act');
    const res = await get(`${CTE}/gaps/eu-ai-act?orgId=${org}&include=assessment`);
    expect(res.statusCode).toBe(200);
    const assessed = res.json() as { gaps: (Gap & { assessment: string })[]; summary: unknown };
    expect(assessed).toEqual(
      computeGaps(library, propagateCoverage(library, statuses), 'eu-ai-act', {
        ...(context as GapContext),
        includeAssessment: true,
      }),
    );
    expect(assessed.summary).toEqual(plain.summary);
    for (const [index, gap] of assessed.gaps.entries()) {
      expect(Object.keys(gap)).toEqual(['controlId', 'priority', 'status', 'recommendation', 'assessment']);
      expect(['direct', 'inferred', 'none']).toContain(gap.assessment);
      const { assessment: _assessment, ...four } = gap;
      expect(four).toEqual(plain.gaps[index]);
    }
    // Read again in either order, each variant keeps its own shape (the cache holds them under two keys).
    expect(await gapsOf('eu-ai-act')).toEqual(plain);
    expect((await get(`${CTE}/gaps/eu-ai-act?orgId=${org}&include=assessment`)).json()).toEqual(assessed);
    const unknown = await get(`${CTE}/gaps/eu-ai-act?orgId=${org}&include=factors`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.fields[0].field).toBe('querystring.include');
  });

  it('documents the include parameter of the gap report in the OpenAPI document', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null });
    expect(res.statusCode).toBe(200);
    const operation = res.json().paths['/api/v1/cte/gaps/{frameworkId}'].get;
    const include = operation.parameters.find((p: { name: string; in: string }) => p.name === 'include');
    expect(include).toMatchObject({ in: 'query', required: false, schema: { enum: ['assessment'] } });
    const gap = operation.responses['200'].content['application/json'].schema.properties.gaps.items;
    expect(gap.required).toEqual(['controlId', 'priority', 'status', 'recommendation']);
  });

  it('analyses a tenant key’s own org and refuses others', async () => {
    const own = await get(`${CTE}/gaps/iso-42001`, tenantKey);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual(await gapsOf('iso-42001'));
    expect((await get(`${CTE}/coverage?orgId=${org}`, tenantKey)).statusCode).toBe(200);
    const foreign = await get(`${CTE}/coverage?orgId=${other}`, tenantKey);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toMatchObject({ code: 'FORBIDDEN', details: { orgId: other } });
    const otherGaps = (await get(`${CTE}/gaps/iso-42001?orgId=${other}`)).json();
    expect(otherGaps.gaps).toHaveLength(38);
  });

  it('answers every error in the envelope', async () => {
    const attestOnly = await t.createKey(org, ['attest']);
    const cases: { url: string; key?: string | null; status: number; code: string; message?: RegExp }[] = [
      { url: `${CTE}/gaps/iso-42001`, status: 400, code: 'BAD_REQUEST', message: /orgId/ },
      { url: `${CTE}/coverage`, status: 400, code: 'BAD_REQUEST', message: /orgId/ },
      { url: `${CTE}/coverage/gdpr`, status: 400, code: 'BAD_REQUEST' },
      { url: `${CTE}/coverage/gdpr/Art.%2033`, status: 400, code: 'BAD_REQUEST' },
      {
        url: `${CTE}/gaps/iso-42001?orgId=ghost`,
        status: 404,
        code: 'RESOURCE_NOT_FOUND',
        message: /^Organization not found$/,
      },
      {
        url: `${CTE}/gaps/sox?orgId=${org}`,
        status: 404,
        code: 'RESOURCE_NOT_FOUND',
        message: /^Framework not found$/,
      },
      { url: `${CTE}/coverage/sox?orgId=${org}`, status: 404, code: 'RESOURCE_NOT_FOUND' },
      {
        url: `${CTE}/coverage/gdpr/Art.%2099?orgId=${org}`,
        status: 404,
        code: 'RESOURCE_NOT_FOUND',
        message: /^Requirement not found$/,
      },
      { url: `${CTE}/gaps/iso-42001?orgId=${org}`, key: null, status: 401, code: 'UNAUTHORIZED' },
      { url: `${CTE}/gaps/iso-42001`, key: attestOnly, status: 403, code: 'FORBIDDEN' },
      { url: `${CTE}/nothing-here`, status: 404, code: 'NOT_FOUND' },
    ];
    for (const { url, key, status, code, message } of cases) {
      const res = await get(url, key);
      expect(res.statusCode, url).toBe(status);
      expect(res.json().error.code, url).toBe(code);
      if (message) expect(res.json().error.message, url).toMatch(message);
    }
    const missingOrg = await get(`${CTE}/gaps/iso-42001`);
    expect(missingOrg.json().error.details).toEqual({
      fields: [{ field: 'querystring.orgId', message: 'is required with a platform key' }],
    });
    const missingRequirement = await get(`${CTE}/coverage/gdpr/Art.%2099?orgId=${org}`);
    expect(missingRequirement.json().error.details).toEqual({
      frameworkId: 'gdpr',
      requirementId: 'Art. 99',
    });
  });
});
