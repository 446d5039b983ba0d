import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';
import { readmeScreenshot } from '../support/screenshots.js';

/**
 * AI risks in the web console, in a real browser (Debian's Chromium through playwright-core) against a real
 * daemon on PostgreSQL: the register's heat map filters the list, a key adds a treated risk, an approver signed
 * in as a person accepts residual risk (and sees it turn stale when the rating changes), the exports page
 * shows the Statement of Applicability's checks, and an AI system's impact assessment goes from the form its
 * template generates through submission and a second person's approval to a revision compared side by side.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const ORG = 'acme';
const APPROVER = {
  email: 'ada@example.com',
  name: 'Ada Approver',
  password: 'an approver’s long passphrase',
};
const EDITOR = { email: 'ed@example.com', name: 'Ed Editor', password: 'an editor’s long passphrase' };
const OWNER = { email: 'olivia@example.com', name: 'Olivia Owner', password: 'an owner’s long passphrase' };

let daemon: Daemon;
let dropDatabase: () => Promise<void>;
let browser: Browser;
let writeKey: string;
let screenerId: string;

interface Template {
  templateId: string;
  name: string;
  sections: {
    questions: { questionId: string; text: string; kind: string; options?: string[]; required: boolean }[];
  }[];
  evidenceFor: { frameworkId: string; requirementId: string }[];
}

interface Assessment {
  state: string;
  answers: Record<string, unknown>;
  impacts: { riskId?: string }[];
  approvedBy: { name: string } | null;
  contentHash: string | null;
}

interface Risk {
  riskId: string;
  title: string;
  likelihood: number;
  impact: number;
  state: string;
  systemIds: string[];
  residual: { score: number; level: string };
  treatment: { option: string; requirements: { frameworkId: string; requirementId: string }[] } | null;
  treatmentProgress: {
    implemented: number;
    total: number;
    requirements: { frameworkId: string; requirementId: string; status: string }[];
  };
  acceptance: {
    state: string;
    acceptedBy: { name: string };
    expiresAt: string;
    justification: string;
  } | null;
}

const api = <T = Record<string, unknown>>(method: string, url: string, body?: unknown, key = ADMIN_KEY) =>
  callApi<T>(daemon.url, key, method, url, body);

const riskNamed = async (title: string) =>
  (await api<{ risks: Risk[] }>('GET', `/orgs/${ORG}/risks`)).risks.find((r) => r.title === title)!;

/** Invites a member with the platform key and accepts the invitation over the API, as the test's set-up. */
async function createMember(member: { email: string; name: string; password: string }, role: string) {
  const created = await api<{ invitation: { token: string } }>('POST', `/orgs/${ORG}/members`, {
    email: member.email,
    name: member.name,
    role,
  });
  const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: created.invitation.token, password: member.password }),
  });
  expect(accepted.status).toBe(200);
}

/**
 * A fresh browser context (its own cookies and storage); page errors fail the test. A 404 of the SoA checks
 * is the answer of a daemon without them, which the page tolerates: not a failure.
 */
async function openConsole(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/status of 404/.test(message.text()) && message.location().url.includes('/soa/checks')) return;
    errors.push(message.text());
  });
  await page.goto(`${daemon.url}/`);
  return { context, page, errors };
}

async function signInWithKey(key: string) {
  const opened = await openConsole();
  await opened.page.getByRole('button', { name: 'Use an API key' }).click();
  await opened.page.getByLabel('API key').fill(key);
  await opened.page.getByRole('button', { name: 'Sign in' }).click();
  await opened.page.getByTestId('score').waitFor();
  return opened;
}

async function signInAs(member: { email: string; password: string }) {
  const opened = await openConsole();
  await opened.page.getByLabel('Email').fill(member.email);
  await opened.page.getByLabel('Password').fill(member.password);
  await opened.page.getByRole('button', { name: 'Sign in' }).click();
  await opened.page.getByTestId('score').waitFor();
  return opened;
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe;
    return (await axe.run()).violations;
  });
  return result
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.nodes.length})`);
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

beforeAll(async () => {
  const database = await createScratchDatabase();
  dropDatabase = database.drop;
  [daemon, browser] = await Promise.all([
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  writeKey = (
    await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, {
      scopes: ['read', 'write', 'export'],
      name: 'risk console',
    })
  ).key;
  await createMember(APPROVER, 'approver');
  await createMember(EDITOR, 'editor');
  await createMember(OWNER, 'owner');
  screenerId = (
    await api<{ systemId: string }>('POST', `/orgs/${ORG}/ai-systems`, {
      name: 'CV screener',
      owner: 'HR',
      purpose: 'Ranks applicants',
      riskLevel: 'high',
      lifecycleStage: 'deployed',
    })
  ).systemId;
  await api('POST', `/orgs/${ORG}/ai-systems`, {
    name: 'Support bot',
    owner: 'CX',
    purpose: 'First-line support',
    riskLevel: 'limited',
  });
  await api('PUT', `/orgs/${ORG}/controls/A.6.2.4/status`, { status: 'implemented', reviewer: 'alice' });
  // Inherent critical, treated down to medium: treating, one of two requirements implemented.
  await api('POST', `/orgs/${ORG}/risks`, {
    title: 'Bias in ranking',
    systemIds: [screenerId],
    likelihood: 4,
    impact: 5,
    treatment: {
      option: 'mitigate',
      requirements: [
        { frameworkId: 'iso-42001', requirementId: 'A.6.2.4' },
        { frameworkId: 'iso-42001', requirementId: 'A.7.4' },
      ],
      plan: 'Fairness tests before each release',
      dueDate: inDays(60),
    },
    residualLikelihood: 2,
    residualImpact: 3,
  });
  // No treatment: open.
  await api('POST', `/orgs/${ORG}/risks`, {
    title: 'Prompt injection',
    systemIds: ['Support bot'],
    likelihood: 3,
    impact: 3,
  });
  // Treated as far as it goes, yet the residual stays high: it needs an acceptance.
  await api('POST', `/orgs/${ORG}/risks`, {
    title: 'Training data leakage',
    systemIds: [screenerId, 'Support bot'],
    likelihood: 5,
    impact: 4,
    treatment: { option: 'mitigate', requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }] },
    residualLikelihood: 4,
    residualImpact: 4,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await dropDatabase?.();
});

describe('AI risks in the web console', { timeout: 90_000 }, () => {
  it('shows the register with the heat map of the summary; a cell filters the list', async () => {
    const { context, page, errors } = await signInWithKey(writeKey);
    await page.getByRole('link', { name: 'AI risks' }).click();
    const table = page.getByTestId('risks');
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const bias = table.locator('tr[data-risk="Bias in ranking"]');
    await bias.getByText('CV screener').waitFor();
    await bias.getByText('critical (20)').waitFor();
    await bias.getByText('medium (6)').waitFor();
    await bias.getByText('treating').waitFor();
    await bias.getByText('mitigate 1/2').waitFor();
    await table
      .locator('tr[data-risk="Training data leakage"]')
      .getByText('CV screener, Support bot')
      .waitFor();
    await table.locator('tr[data-risk="Training data leakage"]').getByText('needed').waitFor();

    // Every cell's count is the summary's, for the residual rating and the inherent one.
    const summary = await api<{ matrix: { inherent: number[][]; residual: number[][] } }>(
      'GET',
      `/orgs/${ORG}/risks/summary`,
    );
    const map = page.getByTestId('heat-map');
    const cellCounts = async () => {
      const counts: number[][] = [];
      for (const row of await map.locator('tbody tr').all()) {
        counts.push((await row.locator('td button').allTextContents()).map(Number));
      }
      return counts;
    };
    expect(await map.getAttribute('data-rating')).toBe('residual');
    expect(await cellCounts()).toEqual([...summary.matrix.residual].reverse());
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'risks.png');

    await map.getByRole('button', { name: 'Likelihood 4, impact 4 (high): 1 risk' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText('Training data leakage').waitFor();
    await page.getByTestId('cell-filter').getByText('residual likelihood 4 × impact 4 only').waitFor();

    await page.getByRole('radio', { name: 'inherent' }).check();
    await expect.poll(() => map.getAttribute('data-rating')).toBe('inherent');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await cellCounts()).toEqual([...summary.matrix.inherent].reverse());
    await map.getByRole('button', { name: 'Likelihood 4, impact 5 (critical): 1 risk' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText('Bias in ranking').waitFor();
    await page.getByRole('button', { name: 'Show every cell' }).click();
    await expect.poll(() => rows.count()).toBe(3);

    // The API's own filters: state, residual level, AI system.
    await page.getByLabel('State').selectOption('open');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText('Prompt injection').waitFor();
    await page.getByLabel('State').selectOption('');
    await page.getByLabel('Residual level').selectOption('high');
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByText('Training data leakage').waitFor();
    await page.getByLabel('Residual level').selectOption('');
    await page.getByLabel('AI system').selectOption({ label: 'CV screener' });
    await expect.poll(() => rows.count()).toBe(2);

    // A system's name leads to its page, which lists the risks that name it.
    await bias.getByRole('link', { name: 'CV screener' }).click();
    await page.getByRole('heading', { name: 'CV screener', level: 1 }).waitFor();
    const systemRisks = page.getByTestId('system-risks');
    await expect.poll(() => systemRisks.locator('tbody tr').count()).toBe(2);
    await systemRisks.getByRole('link', { name: 'Training data leakage' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('adds a treated risk with systems and requirements of two frameworks', async () => {
    const { context, page, errors } = await signInWithKey(writeKey);
    await page.goto(`${daemon.url}/#/risks`);
    const form = page.getByTestId('risk-form');
    await form.getByLabel('Title').fill('Unfair denial of benefits');
    await form.getByLabel('Owner').fill('Risk office');
    await form.getByLabel('Likelihood', { exact: true }).selectOption('4');
    await form.getByLabel('Impact', { exact: true }).selectOption('4');
    await form.getByRole('checkbox', { name: 'CV screener' }).check();
    await form.getByLabel('Treatment', { exact: true }).selectOption('mitigate');
    await form.getByLabel('Treatment plan').fill('Human review of every denial');
    const picker = form.getByTestId('requirement-picker');
    await picker.getByLabel('Requirement', { exact: true }).selectOption('A.6.2.4');
    await picker.getByRole('button', { name: 'Add requirement' }).click();
    await picker.getByLabel('Framework').selectOption('eu-ai-act');
    await picker.getByLabel('Requirement', { exact: true }).selectOption('Art. 14');
    await picker.getByRole('button', { name: 'Add requirement' }).click();
    await picker.getByRole('button', { name: 'Remove iso-42001 A.6.2.4' }).waitFor();
    await picker.getByRole('button', { name: 'Remove eu-ai-act Art. 14' }).waitFor();
    await form.getByLabel('Residual likelihood').selectOption('2');
    await form.getByLabel('Residual impact').selectOption('2');
    expect(await axeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add risk' }).click();
    await form.getByText('Risk added').waitFor();

    const risk = await riskNamed('Unfair denial of benefits');
    expect(risk).toMatchObject({
      systemIds: [screenerId],
      residual: { score: 4, level: 'low' },
      treatment: {
        option: 'mitigate',
        requirements: [
          { frameworkId: 'iso-42001', requirementId: 'A.6.2.4' },
          { frameworkId: 'eu-ai-act', requirementId: 'Art. 14' },
        ],
      },
      state: 'treating',
    });
    const row = page.getByTestId('risks').locator('tr[data-risk="Unfair denial of benefits"]');
    await row.getByText('mitigate 1/2').waitFor();

    // Its page: the treatment's requirements with their live status, each linked to its requirement.
    await row.getByRole('link', { name: 'Unfair denial of benefits' }).click();
    await page.getByRole('heading', { name: 'Unfair denial of benefits', level: 1 }).waitFor();
    const requirements = page.getByTestId('treatment-requirements');
    await requirements.locator('tr[data-requirement="A.6.2.4"]').getByText('implemented').waitFor();
    const art14 = risk.treatmentProgress.requirements.find((r) => r.requirementId === 'Art. 14')!;
    await requirements
      .locator('tr[data-requirement="Art. 14"]')
      .getByText(art14.status.replace(/_/g, ' '))
      .waitFor();
    await page.getByTestId('treatment-progress').getByText('1 of 2 requirements implemented').waitFor();
    // A key is told why it cannot accept: approvals are for people.
    await page.getByTestId('acceptance').getByText('approvals are made by people').waitFor();
    expect(await page.getByRole('button', { name: 'Accept residual risk' }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await requirements.getByRole('link', { name: 'Art. 14' }).click();
    await page.getByTestId('requirement-panel').getByRole('heading', { name: 'Art. 14' }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/#/frameworks/eu-ai-act/Art.%2014`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an approver accept residual risk, which turns stale on a new rating, and withdraw it', async () => {
    const leak = await riskNamed('Training data leakage');
    expect(leak.state).toBe('needs_acceptance');

    // An editor, signed in as a person, is not offered the acceptance either.
    const editor = await signInAs(EDITOR);
    await editor.page.goto(`${daemon.url}/#/risks/${leak.riskId}`);
    await editor.page
      .getByTestId('acceptance')
      .getByText('Your role (editor) does not include approvals')
      .waitFor();
    expect(editor.errors).toEqual([]);
    await editor.context.close();

    const { context, page, errors } = await signInAs(APPROVER);
    await page.goto(`${daemon.url}/#/risks/${leak.riskId}`);
    const acceptance = page.getByTestId('acceptance');
    await acceptance.getByText('Not accepted').waitFor();
    const until = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    await acceptance
      .getByLabel('Justification')
      .fill('Residual leakage bounded by contract; reviewed quarterly');
    await acceptance.getByLabel('Accepted until').fill(until);
    await acceptance.getByRole('button', { name: 'Accept residual risk' }).click();
    await acceptance.getByText('Residual risk accepted').waitFor();
    await acceptance.getByText(`${APPROVER.name} (${APPROVER.email})`).waitFor();
    await acceptance.getByText(until).waitFor();
    await acceptance.locator('.badge', { hasText: 'valid' }).waitFor();
    await page.getByTestId('risk-facts').getByText('accepted').waitFor();
    const accepted = await riskNamed('Training data leakage');
    expect(accepted).toMatchObject({
      state: 'accepted',
      acceptance: {
        state: 'valid',
        acceptedBy: { name: APPROVER.name },
        expiresAt: `${until}T23:59:59.000Z`,
      },
    });
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'risk.png');

    // A new residual rating changes what was accepted: the acceptance turns stale.
    await page.getByLabel('Residual likelihood').selectOption('3');
    await page.getByRole('button', { name: 'Save rating' }).click();
    await page.getByText('Residual rating saved').waitFor();
    await acceptance.locator('.badge', { hasText: 'stale' }).waitFor();
    await page.getByTestId('risk-facts').getByText('needs acceptance').waitFor();
    expect((await riskNamed('Training data leakage')).acceptance?.state).toBe('stale');

    await acceptance.getByRole('button', { name: 'Withdraw' }).click();
    await acceptance.getByText('Acceptance withdrawn').waitFor();
    await acceptance.getByText('Not accepted').waitFor();
    expect((await riskNamed('Training data leakage')).acceptance).toBeNull();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the Statement of Applicability’s checks on the exports page, or nothing without them', async () => {
    const probe = await fetch(`${daemon.url}/api/v1/orgs/${ORG}/soa/checks`, {
      headers: { authorization: `Bearer ${writeKey}` },
    });
    const { context, page, errors } = await signInWithKey(writeKey);
    await page.getByRole('link', { name: 'Exports' }).click();
    await page.getByRole('heading', { name: 'OSCAL package' }).waitFor();
    if (probe.status === 404) {
      // The daemon has no checks yet: the page shows no panel and no error.
      await expect.poll(() => page.getByTestId('soa-checks').count()).toBe(0);
    } else {
      expect(probe.status).toBe(200);
      const { checks } = (await probe.json()) as {
        checks: { kind: string; severity: string; message: string; riskId?: string; systemId?: string }[];
      };
      const panel = page.getByTestId('soa-checks');
      await expect.poll(() => panel.locator('tbody tr').count()).toBe(checks.length);
      // The open risk, the withdrawn acceptance, the high-risk system without an approved assessment.
      const prompt = await riskNamed('Prompt injection');
      const open = checks.find((c) => c.kind === 'risk_without_treatment' && c.riskId === prompt.riskId)!;
      expect(open).toBeDefined();
      const leak = await riskNamed('Training data leakage');
      expect(checks).toContainEqual(
        expect.objectContaining({ kind: 'needs_acceptance', riskId: leak.riskId }),
      );
      const unassessed = checks.find((c) => c.kind === 'system_without_impact_assessment')!;
      expect(unassessed.systemId).toBe(screenerId);
      const system = panel.locator('tr[data-kind="system_without_impact_assessment"]');
      await system.getByText(unassessed.message).waitFor();
      await system.getByRole('link', { name: 'CV screener' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await readmeScreenshot(page, 'soa-checks.png');
      const row = panel.locator('tr[data-kind="risk_without_treatment"]', { hasText: open.message });
      await row.getByText(open.severity, { exact: true }).waitFor();
      await row.getByRole('link', { name: 'the risk' }).click();
      await page.getByRole('heading', { name: 'Prompt injection', level: 1 }).waitFor();
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('takes an impact assessment from its template’s form through a second person’s approval to a revision', async (ctx) => {
    const probe = await fetch(`${daemon.url}/api/v1/impact-assessment-templates`, {
      headers: { authorization: `Bearer ${writeKey}` },
    });
    if (probe.status === 404) ctx.skip();
    const { templates } = (await probe.json()) as { templates: Template[] };
    const template = templates.find((t) => t.templateId === 'iso-42001-aiia')!;
    const questions = template.sections.flatMap((section) => section.questions);

    // A key starts the assessment on the system's page and fills in the form the template generates.
    const key = await signInWithKey(writeKey);
    await key.page.getByRole('link', { name: 'AI systems' }).click();
    await key.page.getByTestId('systems').getByRole('link', { name: 'Support bot' }).click();
    await key.page.getByRole('heading', { name: 'Support bot', level: 1 }).waitFor();
    await key.page.getByText('No impact assessment of this system yet.').waitFor();
    await key.page.getByLabel('Template').selectOption({ label: template.name });
    await key.page.getByRole('button', { name: 'Start assessment' }).click();
    await key.page.getByRole('heading', { name: template.name, level: 1 }).waitFor();
    const form = key.page.getByTestId('assessment-form');
    const first = questions.find((q) => q.kind === 'text' && q.required)!;
    await form.locator(`[data-question="${first.questionId}"] textarea`).fill('Answers customers’ questions');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await form.getByText('Draft saved').waitFor();
    // Submitting with required questions unanswered lists them.
    const workflow = key.page.getByTestId('workflow');
    await workflow.getByRole('button', { name: 'Submit for approval' }).click();
    await workflow.getByRole('alert').waitFor();
    const unanswered = workflow.getByRole('list', { name: 'Unanswered required questions' });
    const second = questions.find((q) => q.required && q.questionId !== first.questionId)!;
    await unanswered.getByText(second.text).waitFor();

    for (const q of questions) {
      const field = form.locator(`[data-question="${q.questionId}"]`);
      if (q.kind === 'text') await field.locator('textarea').fill(`About ${q.questionId}`);
      else if (q.kind === 'choice') await field.locator('select').selectOption({ index: 1 });
      else if (q.kind === 'multi') await field.locator('input[type="checkbox"]').first().check();
      else await field.locator('input[type="radio"]').nth(2).check();
    }
    await form.getByRole('button', { name: 'Add impact' }).click();
    const impact = form.getByTestId('impact');
    await impact.getByLabel('Affected').selectOption('groups');
    await impact.getByLabel('What may happen').fill('Customers of one language get worse answers');
    await impact.getByLabel('Severity').selectOption('4');
    await impact
      .getByLabel('Rights at stake (comma-separated)')
      .fill('non-discrimination, consumer protection');
    await impact.getByLabel('Raised as risk').selectOption({ label: 'Prompt injection' });
    expect(await axeViolations(key.page)).toEqual([]);
    await readmeScreenshot(key.page, 'assessment.png');
    await form.getByRole('button', { name: 'Save draft' }).click();
    const assessmentId = key.page.url().split('/').pop()!;
    const read = () => api<Assessment>('GET', `/orgs/${ORG}/impact-assessments/${assessmentId}`);
    await expect.poll(async () => (await read()).impacts.length).toBe(1);
    const saved = await read();
    expect(saved.state).toBe('draft');
    expect(Object.keys(saved.answers).sort()).toEqual(questions.map((q) => q.questionId).sort());
    const scale = questions.find((q) => q.kind === 'scale')!;
    expect(saved.answers[scale.questionId]).toBe(3);
    const prompt = await riskNamed('Prompt injection');
    expect(saved.impacts).toEqual([
      {
        affected: 'groups',
        description: 'Customers of one language get worse answers',
        likelihood: 3,
        severity: 4,
        rights: ['non-discrimination', 'consumer protection'],
        riskId: prompt.riskId,
      },
    ]);
    // A second impact, once saved, is raised into the register as a new risk of the system, rated by it.
    await form.getByRole('button', { name: 'Add impact' }).click();
    const another = form.getByTestId('impact').nth(1);
    await another.getByLabel('What may happen').fill('Wrong refund promises to customers');
    await another.getByLabel('Likelihood').selectOption('2');
    await form.getByRole('button', { name: 'Save draft' }).click();
    await expect.poll(async () => (await read()).impacts.length).toBe(2);
    await another.getByRole('button', { name: 'Raise impact 2 as a new risk' }).click();
    await form.getByText('Impact 2 raised as a risk').waitFor();
    const raised = await riskNamed('Wrong refund promises to customers');
    expect(raised).toMatchObject({ likelihood: 2, impact: 3, state: 'open' });
    expect((await read()).impacts[1]).toMatchObject({ riskId: raised.riskId });
    await expect.poll(() => another.getByLabel('Raised as risk').inputValue()).toBe(raised.riskId);
    // The refused submission (400) is an answer the page shows, not a failure of the page.
    expect(key.errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await key.context.close();

    // The approver submits it, and so may not approve it: a second person must.
    const ada = await signInAs(APPROVER);
    await ada.page.goto(`${daemon.url}/#/assessments/${assessmentId}`);
    const adaFlow = ada.page.getByTestId('workflow');
    await adaFlow.getByRole('button', { name: 'Submit for approval' }).click();
    await adaFlow.getByText('You submitted it: a second person').waitFor();
    expect(await adaFlow.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await ada.page.getByTestId('answers').getByText(`3 · ${scale.options![2]}`).waitFor();
    // Both impacts link the risk each raised.
    await expect
      .poll(() => ada.page.getByTestId('impacts').getByRole('link', { name: 'the risk' }).count())
      .toBe(2);
    expect(ada.errors).toEqual([]);
    await ada.context.close();

    const olivia = await signInAs(OWNER);
    await olivia.page.goto(`${daemon.url}/#/assessments/${assessmentId}`);
    const flow = olivia.page.getByTestId('workflow');
    await flow.getByText(`Submitted by ${APPROVER.name}`).waitFor();
    await flow.getByRole('button', { name: 'Approve' }).click();
    await flow.getByText('Assessment approved').waitFor();
    const facts = olivia.page.getByTestId('assessment-facts');
    await facts.getByText(`${OWNER.name} (${OWNER.email})`).waitFor();
    const approved = await api<Assessment>('GET', `/orgs/${ORG}/impact-assessments/${assessmentId}`);
    expect(approved).toMatchObject({ state: 'approved', approvedBy: { name: OWNER.name } });
    await facts.getByText(approved.contentHash!).waitFor();
    for (const e of template.evidenceFor) {
      await facts.getByRole('link', { name: `${e.frameworkId} ${e.requirementId}` }).waitFor();
    }

    // A new risk tier flags it for re-assessment, on its page, the system's and the list of those due.
    await olivia.page.getByRole('link', { name: 'Support bot' }).click();
    await olivia.page.getByLabel('Risk tier').selectOption('high');
    await olivia.page.getByRole('button', { name: 'Save system' }).click();
    await olivia.page.getByText('System saved').waitFor();
    const row = olivia.page
      .getByTestId('system-assessments')
      .locator('tr[data-assessment="iso-42001-aiia v1"]');
    await row.getByText('re-assessment due').waitFor();
    await row.getByText('risk level changed from limited to high').waitFor();
    await olivia.page.getByRole('link', { name: 'Impact assessments' }).click();
    await olivia.page.getByRole('checkbox', { name: 'Due for re-assessment only' }).check();
    const due = olivia.page.getByTestId('assessments');
    await expect.poll(() => due.locator('tbody tr').count()).toBe(1);
    await due.getByRole('link', { name: `${template.name}, version 1` }).click();
    await olivia.page
      .getByTestId('reassessment')
      .getByText('risk level changed from limited to high')
      .waitFor();

    // A revision: a new draft, version 2, with the answers copied; one answer changed shows side by side.
    await flow.getByRole('button', { name: 'Revise' }).click();
    await olivia.page.getByText('Of Support bot, version 2').waitFor();
    const revision = olivia.page.getByTestId('assessment-form');
    await revision.locator(`[data-question="${first.questionId}"] textarea`).fill('Answers and escalates');
    await revision.getByRole('button', { name: 'Save draft' }).click();
    await revision.getByText('Draft saved').waitFor();
    const compare = olivia.page.getByTestId('compare');
    await compare.getByText('1 answer differs.').waitFor();
    const changed = compare.locator('tr[data-changed="true"]');
    await expect.poll(() => changed.count()).toBe(1);
    expect(await changed.getAttribute('data-question')).toBe(first.questionId);
    await changed.getByText(`About ${first.questionId}`).waitFor();
    await changed.getByText('Answers and escalates').waitFor();
    expect(await axeViolations(olivia.page)).toEqual([]);
    await readmeScreenshot(olivia.page, 'assessment-compare.png');
    expect(olivia.errors).toEqual([]);
    await olivia.context.close();
  });
});
