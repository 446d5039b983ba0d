import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { policyProblems } from '../../src/clients/gate/policy.js';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type Daemon, runComply } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

const PASSWORD = 'correct horse battery staple';

describe('the policy schema’s rules on risks and impact assessments', () => {
  it('takes a level, two switches and noneDue, and names the JSON path of each bad member', () => {
    expect(
      policyProblems({
        risks: { maxUnacceptedResidual: 'medium', noLapsedAcceptances: true, noOverdueTreatments: false },
        impactAssessments: { noneDue: true },
      }),
    ).toEqual([]);
    expect(
      policyProblems({
        risks: {},
        impactAssessments: {},
      }),
    ).toEqual([
      '$.risks: must hold at least one rule (maxUnacceptedResidual, noLapsedAcceptances, noOverdueTreatments)',
      '$.impactAssessments.noneDue: is required',
    ]);
    expect(
      policyProblems({ risks: { maxUnacceptedResidual: 'huge', noOverdueTreatments: 'yes', other: 1 } }),
    ).toEqual([
      '$.risks.other: is not a known member',
      '$.risks.maxUnacceptedResidual: must be one of "low", "medium", "high", "critical"',
      '$.risks.noOverdueTreatments: must be boolean',
    ]);
  });
});

interface Result {
  rule: string;
  name: string;
  passed: boolean;
  expected: string;
  actual: string;
  failures: string[];
}

// Each command is a process of its own (about 1 s), hence the longer timeout.
describe.each(dbKinds)('comply check on the risk register on %s', { timeout: 180_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let dir: string;
  let env: Record<string, string>;
  let call: ReturnType<typeof api>;
  let cookie: string;
  const ids: Record<'bias' | 'leak' | 'drift', string> = { bias: '', leak: '', drift: '' };

  const check = (org: string, ...args: string[]) =>
    runComply(['check', '--org', org, ...args], { ...env, COMPLY_ORG: '' });
  const results = async (org: string, ...args: string[]) => {
    const run = await check(org, ...args, '--format', 'json');
    expect(run.code === 0 || run.code === 1, run.stderr).toBe(true);
    return { code: run.code, results: JSON.parse(run.stdout).results as Result[] };
  };
  /** An approval, as Ada (a signed-in approver): keys cannot approve. */
  const asAda = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${daemon.url}/api/v1${url}`, {
      method,
      headers: { cookie, origin: daemon.url, 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    expect(response.status, await response.clone().text()).toBeLessThan(300);
    return response.json();
  };
  const accept = (riskId: string, expiresAt: string) =>
    asAda('POST', `/orgs/risky/risks/${riskId}/acceptance`, {
      justification: 'Known and watched',
      expiresAt,
    });

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    dir = mkdtempSync(path.join(tmpdir(), 'comply-check-risks-'));
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY };
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'risky', name: 'Risky AI' });
    const invited = await call<{ invitation: { token: string } }>('POST', '/orgs/risky/members', {
      email: 'ada@example.com',
      name: 'Ada Approver',
      role: 'approver',
    });
    const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: daemon.url },
      body: JSON.stringify({ token: invited.invitation.token, password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    const login = await fetch(`${daemon.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers.getSetCookie()[0].split(';')[0];

    const add = async (body: Record<string, unknown>) =>
      (await call<{ riskId: string }>('POST', '/orgs/risky/risks', body)).riskId;
    ids.bias = await add({
      title: 'Biased triage',
      likelihood: 4,
      impact: 4,
      treatment: {
        option: 'mitigate',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.7.4' }],
        dueDate: '2020-01-31T00:00:00.000Z',
      },
      residualLikelihood: 3,
      residualImpact: 4,
    });
    ids.leak = await add({ title: 'Prompt leak', likelihood: 2, impact: 2 });
    ids.drift = await add({ title: 'Model drift', likelihood: 3, impact: 3 });
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails on unaccepted residual risk above the level and on overdue treatments', async () => {
    const run = await check(
      'risky',
      '--max-unaccepted-residual',
      'medium',
      '--no-lapsed-acceptances',
      '--no-overdue-treatments',
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      'FAIL  every AI risk with a residual level above medium accepted: 1 (expected 0)',
    );
    expect(run.stdout).toContain(
      `        ${ids.bias} "Biased triage": residual high (12), treating, never accepted`,
    );
    expect(run.stdout).toContain('PASS  no stale or expired AI risk acceptance: 0');
    expect(run.stdout).toContain('FAIL  no AI risk treatment overdue: 1 (expected 0)');
    expect(run.stdout).toContain(
      `        ${ids.bias} "Biased triage": due 2020-01-31, 0 of 1 requirements implemented (open: iso-42001 A.7.4)`,
    );
    expect(run.stdout).toContain('comply check risky: 2 of 3 rules failed');

    // Above low, the medium drift counts too; above high, nothing does.
    const low = await results('risky', '--max-unaccepted-residual', 'low');
    expect(low.results[0]).toMatchObject({ rule: 'max-unaccepted-residual', passed: false, actual: '2' });
    expect(low.results[0].failures[1]).toBe(
      `${ids.drift} "Model drift": residual medium (9), open, never accepted`,
    );
    expect((await check('risky', '--max-unaccepted-residual', 'high')).code).toBe(0);

    // Accepted by a person, and with its requirement implemented, the biased triage passes both.
    await accept(ids.bias, '2099-12-31T00:00:00.000Z');
    await call('PUT', `/orgs/risky/frameworks/iso-42001/requirements/${enc('A.7.4')}/status`, {
      status: 'implemented',
      reviewer: 'al',
    });
    const held = await results('risky', '--max-unaccepted-residual', 'medium', '--no-overdue-treatments');
    expect(held.code).toBe(0);
    expect(held.results.map((r) => [r.rule, r.passed, r.actual])).toEqual([
      ['max-unaccepted-residual', true, '0'],
      ['no-overdue-treatments', true, '0'],
    ]);
  });

  it('fails on stale and expired acceptances', async () => {
    await accept(ids.leak, '2099-12-31T00:00:00.000Z');
    expect((await check('risky', '--no-lapsed-acceptances')).code).toBe(0);
    // Stale: the risk's rating changed after it was accepted. Expired: accepted for two seconds only (an
    // expiry must be in the future when it is given), which the test waits out.
    const soon = Date.now() + 2_000;
    await accept(ids.drift, new Date(soon).toISOString());
    await call('PUT', `/orgs/risky/risks/${ids.leak}`, { likelihood: 1 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, soon - Date.now()) + 200));

    const lapsed = await results('risky', '--no-lapsed-acceptances');
    expect(lapsed.code).toBe(1);
    expect(lapsed.results[0]).toMatchObject({ rule: 'no-lapsed-acceptances', passed: false, actual: '2' });
    const day = new Date().toISOString().slice(0, 10);
    expect(lapsed.results[0].failures).toEqual([
      `${ids.leak} "Prompt leak": the acceptance by Ada Approver is stale: the risk changed after ${day}; accept it again or withdraw it`,
      `${ids.drift} "Model drift": the acceptance by Ada Approver is expired ${new Date(soon).toISOString().slice(0, 10)}; accept it again or withdraw it`,
    ]);

    // Withdrawn or accepted again, the rule holds.
    await fetch(`${daemon.url}/api/v1/orgs/risky/risks/${ids.leak}/acceptance`, {
      method: 'DELETE',
      headers: { cookie, origin: daemon.url },
    });
    await accept(ids.drift, '2099-12-31T00:00:00.000Z');
    expect((await check('risky', '--no-lapsed-acceptances')).code).toBe(0);
  });

  it('reads the rules from a policy file, which flags override, and points SARIF at their lines', async () => {
    const outage = await call<{ riskId: string }>('POST', '/orgs/risky/risks', {
      title: 'Vendor outage',
      likelihood: 2,
      impact: 3,
    });
    const file = path.join(dir, 'risks.policy.json');
    writeFileSync(
      file,
      `${JSON.stringify(
        { risks: { maxUnacceptedResidual: 'low', noLapsedAcceptances: true, noOverdueTreatments: false } },
        null,
        2,
      )}\n`,
    );
    const sarif = await check('risky', '--policy', file, '--format', 'sarif');
    expect(sarif.code).toBe(1);
    const run = JSON.parse(sarif.stdout).runs[0];
    const rules = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(rules).toEqual(
      expect.arrayContaining([
        'max-unaccepted-residual',
        'no-lapsed-acceptances',
        'no-overdue-treatments',
        'no-due-impact-assessments',
      ]),
    );
    const located = run.results.map(
      (r: {
        ruleId: string;
        kind: string;
        locations?: { physicalLocation: { region: { startLine: number } } }[];
      }) => [r.ruleId, r.kind, r.locations?.[0].physicalLocation.region.startLine],
    );
    // The outage (medium, never accepted) is above low; every acceptance is valid.
    expect(run.results[0].message.text).toContain(
      `${outage.riskId} "Vendor outage": residual medium (6), open`,
    );
    expect(located).toEqual([
      ['max-unaccepted-residual', 'fail', 3],
      ['no-lapsed-acceptances', 'pass', 4],
    ]);

    const overridden = await results(
      'risky',
      '--policy',
      file,
      '--max-unaccepted-residual',
      'medium',
      '--no-overdue-treatments',
    );
    expect(overridden.results.map((r) => [r.rule, r.passed])).toEqual([
      ['max-unaccepted-residual', true],
      ['no-lapsed-acceptances', true],
      ['no-overdue-treatments', true],
    ]);

    const bad = path.join(dir, 'bad.policy.json');
    writeFileSync(bad, JSON.stringify({ risks: { maxUnacceptedResidual: 'huge' } }));
    const refused = await check('risky', '--policy', bad);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      '$.risks.maxUnacceptedResidual: must be one of "low", "medium", "high", "critical"',
    );
    const usage = await check('risky', '--max-unaccepted-residual', 'huge');
    expect(usage.code).toBe(2);
  });

  it('fails on an approved impact assessment due for re-assessment', async () => {
    const { systemId } = await call<{ systemId: string }>('POST', '/orgs/risky/ai-systems', {
      name: 'Triage',
      owner: 'ops',
      purpose: 'Triage of emergency calls',
      riskLevel: 'high',
    });
    const { templates } = await call<{
      templates: {
        templateId: string;
        sections: { questions: { questionId: string; kind: string; options?: string[] }[] }[];
      }[];
    }>('GET', '/impact-assessment-templates');
    const template = templates.find((t) => t.templateId === 'iso-42001-aiia');
    const answers = Object.fromEntries(
      (template?.sections ?? [])
        .flatMap((section) => section.questions)
        .map((q) => [
          q.questionId,
          q.kind === 'text'
            ? `About ${q.questionId}`
            : q.kind === 'choice'
              ? q.options?.[0]
              : q.kind === 'multi'
                ? q.options?.slice(0, 1)
                : (q.options?.length ?? 1),
        ]),
    );
    const { assessmentId } = await call<{ assessmentId: string }>(
      'POST',
      `/orgs/risky/ai-systems/${systemId}/impact-assessments`,
      { templateId: 'iso-42001-aiia' },
    );
    await call('PUT', `/orgs/risky/impact-assessments/${assessmentId}`, { answers });
    await call('POST', `/orgs/risky/impact-assessments/${assessmentId}/submit`, {});
    await asAda('POST', `/orgs/risky/impact-assessments/${assessmentId}/approve`);

    const none = await check('risky', '--no-due-assessments');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('PASS  no approved impact assessment due for re-assessment: 0');

    // The system's risk level changes after approval: the assessment is due again.
    await call('PUT', `/orgs/risky/ai-systems/${systemId}`, { riskLevel: 'limited' });
    const due = await results('risky', '--no-due-assessments');
    expect(due.code).toBe(1);
    expect(due.results[0]).toMatchObject({ rule: 'no-due-impact-assessments', passed: false, actual: '1' });
    expect(due.results[0].failures).toHaveLength(1);
    expect(due.results[0].failures[0]).toMatch(
      new RegExp(`^${assessmentId} \\(iso-42001-aiia v1\\) of Triage \\(${systemId}\\): .+`),
    );

    const file = path.join(dir, 'assessments.policy.json');
    writeFileSync(file, JSON.stringify({ impactAssessments: { noneDue: true } }));
    expect((await check('risky', '--policy', file)).code).toBe(1);
    writeFileSync(file, JSON.stringify({ impactAssessments: { noneDue: false } }));
    const noRules = await check('risky', '--policy', file);
    expect(noRules.code).toBe(2);
    expect(noRules.stderr).toContain('no rules to check');
  });
});
