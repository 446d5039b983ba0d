import { parse } from 'csv-parse/sync';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkOscalConstraints,
  checkOscalReferences,
  type OscalDocumentKind,
  type OscalPackage,
  validateOscalDocument,
} from '../../src/features/exports/oscal/index.js';
import { impactAssessmentChecks, soaChecks } from '../../src/features/exports/soa/soa-checks.js';
import { escapeMarkdownCell } from '../../src/shared/markdown.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';

const KINDS: Record<string, OscalDocumentKind> = {
  'catalog.json': 'catalog',
  'profile.json': 'profile',
  'ssp.json': 'ssp',
  'assessment-plan.json': 'assessment-plan',
  'assessment-results.json': 'assessment-results',
};

type Check = {
  kind: string;
  severity: string;
  message: string;
  riskId?: string;
  controlId?: string;
  systemId?: string;
  assessmentId?: string;
};
type Row = {
  controlId: string;
  applicable: boolean;
  justification: string | null;
  justificationSource: string | null;
  risks: { riskId: string; title: string; residualLevel: string; state: string }[] | null;
};

async function pdfText(body: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(body) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

type Template = {
  templateId: string;
  sections: { questions: { questionId: string; kind: string; options?: string[] }[] }[];
};

/** An answer that fits each question of the template. */
function answersTo(template: Template): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of template.sections.flatMap((section) => section.questions)) {
    const options = question.options ?? [];
    answers[question.questionId] =
      question.kind === 'text'
        ? `Our answer to ${question.questionId}`
        : question.kind === 'choice'
          ? options[0]
          : question.kind === 'multi'
            ? options.slice(0, 1)
            : 1;
  }
  return answers;
}

describe.each(dbKinds)('the Statement of Applicability computed from risk treatment (%s)', (kind) => {
  let t: TestApp;
  let approver: string;
  let systemId: string;
  let retiredId: string;
  let loanId: string;
  let assessmentId: string;
  /** Risk ids by name. */
  const risks: Record<string, string> = {};

  const ok = async (request: Parameters<TestApp['request']>[0], status = 200) => {
    const response = await t.request(request);
    expect(response.statusCode, response.body).toBe(status);
    return response;
  };
  const createRisk = async (name: string, body: Record<string, unknown>) => {
    risks[name] = (await ok({ method: 'POST', url: `${ORG}/risks`, body }, 201)).json().riskId;
    return risks[name];
  };
  const accept = (riskId: string) =>
    ok(
      {
        method: 'POST',
        url: `${ORG}/risks/${riskId}/acceptance`,
        body: {
          justification: 'Reviewed by the board',
          expiresAt: new Date(Date.now() + 90 * 86_400_000).toISOString(),
        },
        key: null,
        headers: { cookie: approver, origin: ORIGIN },
      },
      201,
    );
  const iso = (requirementId: string) => ({ frameworkId: 'iso-42001', requirementId });

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme', 'Acme AI');
    await addMember(t, 'acme', { email: 'ada@example.com', name: 'Ada Approver', role: 'approver' });
    approver = await signIn(t, 'ada@example.com', 'correct horse battery');
    const system = (body: Record<string, unknown>) =>
      ok({ method: 'POST', url: `${ORG}/ai-systems`, body: { owner: 'HR', purpose: 'p', ...body } }, 201);
    systemId = (await system({ name: 'CV screener', riskLevel: 'high', lifecycleStage: 'deployed' })).json()
      .systemId;
    retiredId = (await system({ name: 'Old scorer', riskLevel: 'high', lifecycleStage: 'retired' })).json()
      .systemId;
    loanId = (await system({ name: 'Loan scorer', riskLevel: 'high', lifecycleStage: 'validation' })).json()
      .systemId;

    // The CV screener's impact assessment, approved by a second person, then its purpose changes.
    assessmentId = (
      await ok(
        {
          method: 'POST',
          url: `${ORG}/ai-systems/${systemId}/impact-assessments`,
          body: { templateId: 'iso-42001-aiia' },
        },
        201,
      )
    ).json().assessmentId;
    const templates = (await ok({ method: 'GET', url: '/api/v1/impact-assessment-templates' })).json()
      .templates;
    await ok({
      method: 'PUT',
      url: `${ORG}/impact-assessments/${assessmentId}`,
      body: { answers: answersTo(templates.find((tpl: Template) => tpl.templateId === 'iso-42001-aiia')) },
    });
    await ok({ method: 'POST', url: `${ORG}/impact-assessments/${assessmentId}/submit` });
    await ok({
      method: 'POST',
      url: `${ORG}/impact-assessments/${assessmentId}/approve`,
      key: null,
      headers: { cookie: approver, origin: ORIGIN },
    });
    expect((await checksOf()).filter((check) => check.systemId === systemId)).toEqual([]);
    await ok({ method: 'PUT', url: `${ORG}/ai-systems/${systemId}`, body: { purpose: 'Ranks and rejects' } });

    // A.10.4 does not apply; A.7.4 applies with the officer's own justification.
    await ok({
      method: 'PUT',
      url: `${ORG}/controls/A.10.4/applicability`,
      body: { applicable: false, justification: 'We have no AI customers', reviewer: 'bob' },
    });
    await ok({
      method: 'PUT',
      url: `${ORG}/controls/A.7.4/applicability`,
      body: { applicable: true, justification: 'Data quality matters to us', reviewer: 'bob' },
    });

    await createRisk('bias', {
      title: 'Bias in ranking',
      systemIds: [systemId],
      likelihood: 4,
      impact: 5,
      residualLikelihood: 1,
      residualImpact: 4,
      treatment: {
        option: 'mitigate',
        requirements: [iso('A.6.2.4'), iso('A.7.4')],
        plan: 'Validate every model update against a fairness benchmark',
        dueDate: '2020-01-01T00:00:00.000Z',
      },
    });
    await createRisk('unlogged', {
      title: 'Unlogged decisions',
      likelihood: 2,
      impact: 3,
      treatment: { option: 'mitigate', requirements: [iso('A.10.4'), iso('A.6.2.4')] },
    });
    await createRisk('drift', { title: 'Untreated drift', likelihood: 3, impact: 3 });
    await createRisk('vendor', {
      title: 'Vendor lock-in',
      likelihood: 2,
      impact: 2,
      treatment: { option: 'accept', requirements: [] },
    });
    const stale = await createRisk('stale', {
      title: 'Residual discrimination',
      likelihood: 2,
      impact: 2,
      treatment: { option: 'accept', requirements: [] },
    });
    await accept(stale);
    await ok({ method: 'PUT', url: `${ORG}/risks/${stale}`, body: { impact: 3 } });
    const expired = await createRisk('expired', {
      title: 'Prompt injection',
      likelihood: 2,
      impact: 2,
      treatment: { option: 'accept', requirements: [] },
    });
    await accept(expired);
    await t.db
      .em()
      .execute(
        `update risk_acceptances set expires_at = now() - interval '1 day' where risk_id = ? and withdrawn_at is null`,
        [expired],
      );
  }, 120_000);
  afterAll(() => t?.close());

  const checksOf = async (): Promise<Check[]> =>
    (await ok({ method: 'GET', url: `${ORG}/soa/checks` })).json().checks;

  describe('GET /soa/checks', () => {
    let checks: Check[];
    beforeAll(async () => {
      checks = await checksOf();
    });

    it('flags an excluded control that a risk’s treatment lists, with high severity', () => {
      expect(checks.filter((check) => check.kind === 'excluded_control_treats_risk')).toEqual([
        {
          kind: 'excluded_control_treats_risk',
          severity: 'high',
          message: expect.stringContaining('A.10.4'),
          riskId: risks.unlogged,
          controlId: 'A.10.4',
        },
      ]);
    });

    it('flags a risk without treatment, and an overdue treatment', () => {
      expect(checks).toContainEqual({
        kind: 'risk_without_treatment',
        severity: 'medium',
        message: expect.stringContaining('Untreated drift'),
        riskId: risks.drift,
      });
      expect(checks).toContainEqual({
        kind: 'treatment_overdue',
        severity: 'medium',
        message: expect.stringMatching(/2020-01-01; 0 of 2 requirements/),
        riskId: risks.bias,
      });
    });

    it('flags a risk to accept that no one accepted, a stale acceptance and an expired one', () => {
      const byRisk = (riskId: string) => checks.filter((check) => check.riskId === riskId);
      expect(byRisk(risks.vendor)).toEqual([
        { kind: 'needs_acceptance', severity: 'high', message: expect.any(String), riskId: risks.vendor },
      ]);
      expect(byRisk(risks.stale)).toEqual([
        {
          kind: 'stale_acceptance',
          severity: 'high',
          message: expect.stringContaining('Ada Approver'),
          riskId: risks.stale,
        },
      ]);
      expect(byRisk(risks.expired)).toEqual([
        { kind: 'expired_acceptance', severity: 'high', message: expect.any(String), riskId: risks.expired },
      ]);
    });

    it('flags a high-risk system without an approved impact assessment, and an assessment due, from the records', () => {
      const bySystem = (id: string) => checks.filter((check) => check.systemId === id);
      expect(bySystem(loanId)).toEqual([
        {
          kind: 'system_without_impact_assessment',
          severity: 'high',
          message: `High-risk AI system "Loan scorer" (${loanId}) has no approved impact assessment`,
          systemId: loanId,
        },
      ]);
      expect(bySystem(systemId)).toEqual([
        {
          kind: 'assessment_due',
          severity: 'medium',
          message: expect.stringContaining('purpose has changed'),
          systemId,
          assessmentId,
        },
      ]);
      expect(bySystem(retiredId)).toEqual([]);
    });

    it('lists the most severe first, and nothing for a clean org', async () => {
      const severities = checks.map((check) => check.severity);
      expect(severities).toEqual(
        [...severities].sort(
          (a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b),
        ),
      );
      expect(new Set(checks.map((check) => check.kind))).toEqual(
        new Set([
          'excluded_control_treats_risk',
          'risk_without_treatment',
          'needs_acceptance',
          'stale_acceptance',
          'expired_acceptance',
          'treatment_overdue',
          'system_without_impact_assessment',
          'assessment_due',
        ]),
      );
      await t.createOrg('clean');
      const clean = await ok({ method: 'GET', url: '/api/v1/orgs/clean/soa/checks' });
      expect(clean.json()).toEqual({ orgId: 'clean', checks: [] });
    });

    it('needs only the read scope, and is documented with its severities', async () => {
      const reader = await t.createKey('acme', ['read']);
      await ok({ method: 'GET', url: `${ORG}/soa/checks`, key: reader });
      const other = await t.createKey('clean', ['read']);
      expect((await t.request({ method: 'GET', url: `${ORG}/soa/checks`, key: other })).statusCode).toBe(403);
      const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
      const description: string = doc.paths['/api/v1/orgs/{orgId}/soa/checks'].get.description;
      expect(description).toContain('`excluded_control_treats_risk` high');
      expect(description).toContain('`system_without_impact_assessment` high');
    });
  });

  describe('the risks column and the derived justification', () => {
    let soa: { checks: Check[] | null; notes: string[]; controls: Row[] };
    const row = (controlId: string) => soa.controls.find((r) => r.controlId === controlId) as Row;
    beforeAll(async () => {
      soa = (await ok({ method: 'GET', url: `${ORG}/export/soa` })).json();
    });

    it('lists on each control the risks whose treatment names it (JSON)', () => {
      expect(row('A.6.2.4').risks).toEqual([
        { riskId: risks.bias, title: 'Bias in ranking', residualLevel: 'low', state: 'treating' },
        { riskId: risks.unlogged, title: 'Unlogged decisions', residualLevel: 'medium', state: 'treating' },
      ]);
      expect(row('A.10.4').risks?.map((risk) => risk.riskId)).toEqual([risks.unlogged]);
      expect(row('A.2.2').risks).toEqual([]);
    });

    it('justifies an applicable control without a justification by its risks, marked as derived', () => {
      expect(row('A.6.2.4')).toMatchObject({
        applicable: true,
        justificationSource: 'risks',
        justification: `Selected to treat 2 risks: "Bias in ranking" (${risks.bias}, residual low); "Unlogged decisions" (${risks.unlogged}, residual medium).`,
      });
      expect(row('A.7.4')).toMatchObject({
        justification: 'Data quality matters to us',
        justificationSource: 'officer',
      });
      expect(row('A.10.4')).toMatchObject({
        applicable: false,
        justification: 'We have no AI customers',
        justificationSource: 'officer',
      });
      expect(row('A.2.2')).toMatchObject({ justification: null, justificationSource: null });
    });

    it('carries the checks of /soa/checks', async () => {
      expect(soa.checks).toEqual(await checksOf());
      expect(soa.notes).toEqual([]);
    });

    it('shows the risks column in CSV', async () => {
      const response = await ok({ method: 'GET', url: `${ORG}/export/soa?format=csv` });
      const records: Record<string, string>[] = parse(response.body, { columns: true });
      const record = records.find((r) => r.controlId === 'A.6.2.4');
      expect(record?.risks).toBe(
        `Bias in ranking [${risks.bias}] residual low, treating; Unlogged decisions [${risks.unlogged}] residual medium, treating`,
      );
      expect(record?.justificationSource).toBe('risks');
      expect(record?.justification).toContain('Selected to treat 2 risks');
      expect(records.find((r) => r.controlId === 'A.2.2')).toMatchObject({
        risks: '',
        justificationSource: '',
      });
    });

    it('shows the risks column and the checks in Markdown', async () => {
      const body = (await ok({ method: 'GET', url: `${ORG}/export/soa?format=markdown` })).body;
      const lines = body.split('\n');
      const header = lines.find((line: string) => line.startsWith('| Control')) ?? '';
      expect(header).toContain('| Justification | Risks | Status |');
      const rowLine = lines.find((line: string) => line.startsWith('| A.6.2.4 |')) ?? '';
      expect(rowLine).toContain('(derived from risks) Selected to treat 2 risks');
      expect(rowLine).toContain(
        `${escapeMarkdownCell(`Bias in ranking [${risks.bias}] residual low, treating`)}<br>Unlogged`,
      );
      const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
      expect(cells(rowLine)).toBe(cells(header));
      const checks = body.slice(body.indexOf('## Checks'), body.indexOf('## Controls'));
      expect(checks).toContain('excluded\\_control\\_treats\\_risk');
      expect(checks).toContain('treatment\\_overdue');
      expect(checks.split('\n').filter((line: string) => line.startsWith('- '))).toHaveLength(
        (await checksOf()).length,
      );
    });

    it('shows the risks column and the checks in the PDF', async () => {
      const response = await ok({ method: 'GET', url: `${ORG}/export/soa?format=pdf` });
      const text = await pdfText(response.rawPayload);
      expect(text).toMatch(/Justification\s+Risks\s+Status/);
      expect(text).toContain(risks.bias);
      expect(text).toContain('(derived from risks)');
      expect(text).toContain('Checks');
      expect(text).toContain('excluded_control_treats_risk');
      expect(text).toContain('expired_acceptance');
    });

    it('leaves risks and checks out of a snapshot, and says so', async () => {
      const snapshot = await ok(
        { method: 'POST', url: `${ORG}/compliance/snapshot`, body: { label: 'Audit' } },
        201,
      );
      const url = `${ORG}/export/soa?snapshotId=${snapshot.json().snapshotId}`;
      const frozen = (await ok({ method: 'GET', url })).json();
      expect(frozen.checks).toBeNull();
      // The snapshot froze the notes recorded with the statuses: only the risks are missing.
      expect(frozen.notes).toEqual([expect.stringContaining('a snapshot freezes the control records')]);
      const a624 = frozen.controls.find((r: Row) => r.controlId === 'A.6.2.4');
      expect(a624).toMatchObject({ risks: null, justification: null, justificationSource: null });
      const markdown = (await ok({ method: 'GET', url: `${url}&format=markdown` })).body;
      expect(markdown).toContain('- **Note:** Risks and checks are not part of this statement');
      const csv: Record<string, string>[] = parse(
        (await ok({ method: 'GET', url: `${url}&format=csv` })).body,
        {
          columns: true,
        },
      );
      expect(csv[0].risks).toBe('n/a (snapshot)');
      const pdf = await pdfText((await ok({ method: 'GET', url: `${url}&format=pdf` })).rawPayload);
      expect(pdf).toContain('Risks and checks are not part of this statement');
      const oscal: OscalPackage = (
        await ok({ method: 'GET', url: `${ORG}/export/oscal?snapshotId=${snapshot.json().snapshotId}` })
      ).json();
      expect(
        oscal['oscal-package'].documents['assessment-results.json']['assessment-results'].results[0].risks,
      ).toBeUndefined();
    });
  });

  describe('OSCAL', () => {
    let pkg: OscalPackage;
    beforeAll(async () => {
      pkg = (await ok({ method: 'GET', url: `${ORG}/export/oscal` })).json();
    });

    it('stays valid against NIST’s schema with the risks, every reference resolving', () => {
      for (const [file, document] of Object.entries(pkg['oscal-package'].documents)) {
        expect(validateOscalDocument(KINDS[file], document).errors, file).toEqual([]);
      }
      expect(checkOscalReferences(pkg)).toEqual([]);
      expect(checkOscalConstraints(pkg)).toEqual([]);
    });

    it('carries every risk with its status and both ratings as characterizations', () => {
      const [result] =
        pkg['oscal-package'].documents['assessment-results.json']['assessment-results'].results;
      expect(result.risks).toHaveLength(Object.keys(risks).length);
      const byId = new Map(
        (result.risks ?? []).map((risk) => [risk.props?.find((p) => p.name === 'risk-id')?.value, risk]),
      );
      const status = (name: string) => byId.get(risks[name])?.status;
      expect(status('bias')).toBe('remediating');
      expect(status('drift')).toBe('open');
      expect(status('vendor')).toBe('deviation-requested');
      expect(status('stale')).toBe('deviation-requested');
      const bias = byId.get(risks.bias);
      expect(bias?.characterizations[0].facets).toEqual(
        expect.arrayContaining([
          { name: 'inherent-score', system: 'urn:comply:oscal', value: '20' },
          { name: 'inherent-level', system: 'urn:comply:oscal', value: 'critical' },
          { name: 'residual-level', system: 'urn:comply:oscal', value: 'low' },
        ]),
      );
      expect(bias?.statement).toContain('CV screener');
      expect(bias?.deadline).toBe('2020-01-01T00:00:00.000Z');
      expect(bias?.remediations?.[0]).toMatchObject({ lifecycle: 'planned', title: 'Treatment: mitigate' });
      expect(bias?.['mitigating-factors']?.map((factor) => factor.description)).toEqual([
        'Control A.6.2.4, planned.',
        'Control A.7.4, planned.',
      ]);
      // The finding of a control names the risks its treatment lists.
      const finding = result.findings?.find((f) => f.target['target-id'] === 'a.6.2.4_smt');
      expect(finding?.['related-risks']).toEqual([
        { 'risk-uuid': bias?.uuid },
        { 'risk-uuid': byId.get(risks.unlogged)?.uuid },
      ]);
    });

    it('marks an accepted risk deviation-approved and a treated one closed', async () => {
      const accepted = await createRisk('accepted', {
        title: 'Accepted exposure',
        likelihood: 1,
        impact: 2,
        treatment: { option: 'accept', requirements: [] },
      });
      await accept(accepted);
      const treated = await createRisk('treated', {
        title: 'Treated exposure',
        likelihood: 1,
        impact: 2,
        treatment: { option: 'mitigate', requirements: [iso('A.2.2')] },
      });
      await ok({
        method: 'PUT',
        url: `${ORG}/controls/A.2.2/status`,
        body: { status: 'implemented', reviewer: 'bob' },
      });
      const fresh: OscalPackage = (await ok({ method: 'GET', url: `${ORG}/export/oscal` })).json();
      const [result] =
        fresh['oscal-package'].documents['assessment-results.json']['assessment-results'].results;
      const status = (riskId: string) =>
        result.risks?.find((risk) => risk.props?.some((p) => p.name === 'risk-id' && p.value === riskId))
          ?.status;
      expect(status(accepted)).toBe('deviation-approved');
      expect(status(treated)).toBe('closed');
      expect(
        validateOscalDocument(
          'assessment-results',
          fresh['oscal-package'].documents['assessment-results.json'],
        ).errors,
      ).toEqual([]);
      expect(checkOscalReferences(fresh)).toEqual([]);
      // Another framework's package carries the risks too.
      const eu: OscalPackage = (
        await ok({ method: 'GET', url: `${ORG}/export/oscal?frameworkId=eu-ai-act` })
      ).json();
      const euResults = eu['oscal-package'].documents['assessment-results.json'];
      expect(validateOscalDocument('assessment-results', euResults).errors).toEqual([]);
      expect(euResults['assessment-results'].results[0].risks?.length).toBe(Object.keys(risks).length);
      expect(checkOscalReferences(eu)).toEqual([]);
    });
  });

  describe('impact assessment checks', () => {
    it('count only an approved assessment, and leave both kinds out when no assessments were read', async () => {
      const systems = (await ok({ method: 'GET', url: `${ORG}/ai-systems` })).json().systems;
      const cv = systems.filter((s: { systemId: string }) => s.systemId === systemId);
      expect(impactAssessmentChecks(cv, []).map((check) => check.kind)).toEqual([
        'system_without_impact_assessment',
      ]);
      const draft = { assessmentId: 'ia-1', systemId, state: 'draft', reassessment: null };
      expect(impactAssessmentChecks(cv, [draft]).map((check) => check.kind)).toEqual([
        'system_without_impact_assessment',
      ]);
      const due = {
        assessmentId: 'ia-2',
        systemId,
        state: 'approved',
        reassessment: { due: true, reasons: ['The review was due'] },
      };
      expect(impactAssessmentChecks(cv, [draft, due])).toEqual([
        {
          kind: 'assessment_due',
          severity: 'medium',
          message: `The impact assessment ia-2 of AI system "CV screener" (${systemId}) is due for reassessment: The review was due`,
          systemId,
          assessmentId: 'ia-2',
        },
      ]);
      const input = { controls: [], risks: [], aiSystems: cv };
      expect(soaChecks(input)).toEqual([]);
      expect(soaChecks({ ...input, assessments: [due] }).map((check) => check.kind)).toEqual([
        'assessment_due',
      ]);
    });
  });
});
