import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofType, Receiver } from '../notifications/receiver.js';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';
import { readmeScreenshot } from '../support/screenshots.js';

/**
 * The management-system loop in the web console, in a real browser (Debian's Chromium through playwright-core)
 * against a real daemon on PostgreSQL: what is due for the signed-in person, an internal audit whose major
 * nonconformity caps its requirement until an effectiveness check closes it, and a management review held,
 * decided on and closed with its content hash; a controlled document drafted and approved by two people; a
 * webhook added, delivering to a real receiver, and its delivery log. Each step is checked against the API.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const ORG = 'acme';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const APPROVER = { email: 'ada@example.com', name: 'Ada Approver', password: 'correct horse battery staple' };
const OWNER = { email: 'omar@example.com', name: 'Omar Owner', password: 'another long passphrase' };
type Person = typeof APPROVER;

let daemon: Daemon;
let dropDatabase: () => Promise<void>;
let browser: Browser;
let writeKey: string;
let receiver: Receiver;

const api = <T = Record<string, unknown>>(method: string, url: string, body?: unknown, key = ADMIN_KEY) =>
  callApi<T>(daemon.url, key, method, url, body);

interface DueItem {
  kind: string;
  dueAt: string;
  overdue: boolean;
  owner?: string;
  title: string;
  resource: { type: string; id: string };
}
type Agenda = { items: DueItem[]; total: number };

/** A fresh browser context (its own cookies and storage); page errors fail the test. */
async function openConsole(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${daemon.url}/`);
  return { context, page, errors };
}

/** A person signs in with email and password, up to the overview's score. */
async function signInAs(person: Person) {
  const opened = await openConsole();
  await opened.page.getByLabel('Email').fill(person.email);
  await opened.page.getByLabel('Password').fill(person.password);
  await opened.page.getByRole('button', { name: 'Sign in' }).click();
  await opened.page.getByTestId('score').waitFor();
  return opened;
}
const signInAsApprover = () => signInAs(APPROVER);

/** Invites a member with the platform key and accepts the invitation over the API, as the test's set-up. */
async function createMember(person: Person, role: string) {
  const created = await api<{ invitation: { token: string } }>('POST', `/orgs/${ORG}/members`, {
    email: person.email,
    name: person.name,
    role,
  });
  const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: created.invitation.token, password: person.password }),
  });
  expect(accepted.status).toBe(200);
}

async function signInWithKey(key: string) {
  const opened = await openConsole();
  await opened.page.getByRole('button', { name: 'Use an API key' }).click();
  await opened.page.getByLabel('API key').fill(key);
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

let dueFindingId: string;

beforeAll(async () => {
  const database = await createScratchDatabase();
  dropDatabase = database.drop;
  [daemon, browser] = await Promise.all([
    // The webhook receiver of the test listens on the loopback interface.
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  receiver = await new Receiver().start();
  await createMember(APPROVER, 'approver');
  await createMember(OWNER, 'owner');
  writeKey = (await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read', 'write'] })).key;

  // Dated obligations: some of the approver's (by name), some of nobody's, some overdue.
  await api('POST', `/orgs/${ORG}/controls/A.2.2/evidence`, {
    type: 'document',
    title: 'AI policy v1',
    fileUrl: 'https://example.com/policy',
    expiresAt: at(-3),
  });
  await api('POST', `/orgs/${ORG}/controls/A.2.3/evidence`, {
    type: 'link',
    title: 'Policy portal',
    fileUrl: 'https://example.com/portal',
    expiresAt: at(20),
  });
  await api('POST', `/orgs/${ORG}/risks`, {
    title: 'Unvalidated model updates',
    owner: APPROVER.name,
    likelihood: 3,
    impact: 3,
    reviewDate: at(60),
    treatment: {
      option: 'mitigate',
      requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.5' }],
      dueDate: at(10),
    },
  });
  const audit = await api<{ auditId: string }>('POST', `/orgs/${ORG}/audits`, {
    title: 'Supplier audit',
    frameworkIds: ['iso-42001'],
    leadAuditor: 'Ines Internal',
    plannedStart: at(-20),
    plannedEnd: at(-10),
  });
  dueFindingId = (
    await api<{ findingId: string }>('POST', `/orgs/${ORG}/audits/${audit.auditId}/findings`, {
      kind: 'minor_nonconformity',
      requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.10.3' }],
      description: 'Supplier agreements lack AI clauses',
      owner: APPROVER.name,
      dueDate: at(-2),
    })
  ).findingId;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await receiver?.close();
  await dropDatabase?.();
});

describe('the management-system loop in the web console', { timeout: 120_000 }, () => {
  it('shows what is due for the signed-in person, overdue first, grouped by kind, and everything on request', async () => {
    const { context, page, errors } = await signInAsApprover();
    await page.getByRole('link', { name: 'Due', exact: true }).click();
    await page.getByRole('heading', { name: 'What is due' }).waitFor();
    const mine = await api<Agenda>('GET', `/orgs/${ORG}/due?owner=${encodeURIComponent(APPROVER.name)}`);
    // The finding (overdue), the risk's treatment and its review: the approver's, by name.
    expect(mine.items.map((item) => item.kind)).toEqual(['finding_due', 'risk_treatment', 'risk_review']);
    const rows = page.locator('.due-group tbody tr');
    await expect.poll(() => rows.count()).toBe(mine.total);
    await page.getByTestId('due-summary').getByText('1 overdue').waitFor();
    // The group with the overdue item comes first; the overdue row is highlighted.
    const groups = page.locator('.due-group');
    expect(await groups.first().getAttribute('data-kind')).toBe('finding_due');
    const overdue = page.locator('.due-group tr[data-overdue="true"]');
    expect(await overdue.count()).toBe(1);
    expect(await overdue.getAttribute('class')).toBe('overdue');
    await overdue.getByText('2 days overdue').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'due.png');

    // Everything: the evidence nobody owns joins, overdue first.
    await page.getByRole('radio', { name: 'everything' }).check();
    const all = await api<Agenda>('GET', `/orgs/${ORG}/due`);
    expect(all.total).toBeGreaterThan(mine.total);
    await expect.poll(() => rows.count()).toBe(all.total);
    await page
      .getByTestId('due-summary')
      .getByText(`${all.items.filter((i) => i.overdue).length} overdue`)
      .waitFor();
    expect(await groups.first().getAttribute('data-kind')).toBe(all.items[0].kind);
    expect(await page.locator('.due-group[data-kind="evidence_expiry"] tbody tr').count()).toBe(
      all.items.filter((item) => item.kind === 'evidence_expiry').length,
    );

    // An item leads to its page where the console has one: the risk's, the finding's.
    const risk = all.items.find((item) => item.kind === 'risk_treatment')!;
    await page
      .locator(`.due-group[data-kind="risk_treatment"] tr[data-resource="${risk.resource.id}"]`)
      .getByRole('link')
      .click();
    expect(page.url()).toBe(`${daemon.url}/#/risks/${risk.resource.id}`);
    await page
      .getByRole('heading', { name: /Unvalidated model updates/ })
      .first()
      .waitFor();
    await page.goBack();
    await page.locator(`tr[data-resource="${dueFindingId}"]`).getByRole('link').click();
    await page.getByRole('heading', { name: /minor nonconformity/i }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/#/findings/${dueFindingId}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('runs an audit: a major nonconformity caps its requirement until an effective check closes it', async () => {
    await api('PUT', `/orgs/${ORG}/controls/A.6.2.4/status`, { status: 'implemented', reviewer: 'r' });
    const { context, page, errors } = await signInAsApprover();
    await page.getByRole('link', { name: 'Internal audits' }).click();
    await page.getByRole('heading', { name: 'Plan an internal audit' }).waitFor();
    await page.getByLabel('Title').fill('Internal audit 2026');
    expect(await page.getByLabel('Lead auditor').inputValue()).toBe(APPROVER.name);
    await page.getByRole('checkbox', { name: 'EU Artificial Intelligence Act' }).check();
    await page.getByLabel('Audit criteria').fill('ISO/IEC 42001 Annex A, EU AI Act Title III');
    await page.getByRole('button', { name: 'Plan audit' }).click();
    await page.getByRole('heading', { name: 'Internal audit 2026' }).waitFor();
    const auditId = decodeURIComponent(page.url().split('#/audits/')[1]);
    expect(await api('GET', `/orgs/${ORG}/audits/${auditId}`)).toMatchObject({
      state: 'planned',
      frameworkIds: ['iso-42001', 'eu-ai-act'],
      leadAuditor: APPROVER.name,
    });

    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.getByRole('heading', { name: 'Complete the audit' }).waitFor();

    // A major nonconformity on A.6.2.4, chosen with the requirement picker.
    await page.getByLabel('Kind').selectOption('major_nonconformity');
    await page.getByLabel('Framework', { exact: true }).selectOption('iso-42001');
    await page.getByLabel('Requirement', { exact: true }).selectOption('A.6.2.4');
    await page.getByRole('button', { name: 'Add requirement' }).click();
    await page.getByTestId('chosen-requirements').getByText('A.6.2.4').waitFor();
    await page.getByLabel('Description').fill('Models reach production without the documented validation.');
    await page.getByLabel('Owner').fill(APPROVER.name);
    await page.getByLabel('Due').fill(at(30).slice(0, 10));
    await page.getByText(/each requirement chosen counts at most as in progress until closed/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Open finding' }).click();
    await page.getByText('Finding opened').waitFor();
    const findings = page.getByTestId('findings');
    await findings.getByText('caps its requirements').waitFor();
    const listed = await api<{ findings: { findingId: string; caps: boolean }[] }>(
      'GET',
      `/orgs/${ORG}/audits/${auditId}/findings`,
    );
    expect(listed.findings).toEqual([expect.objectContaining({ caps: true })]);
    const { findingId } = listed.findings[0];
    expect((await api<{ status: string }>('GET', `/orgs/${ORG}/controls/A.6.2.4`)).status).toBe(
      'in_progress',
    );

    // The finding's page: the requirement's status now, and the cap.
    await findings.getByRole('link', { name: /Models reach production/ }).click();
    await page.getByRole('heading', { name: /major nonconformity/i }).waitFor();
    const cap = page.getByTestId('cap');
    await cap.getByText('counts at most as in progress until closed').waitFor();
    const requirement = page.getByTestId('finding-requirements').locator('tr[data-requirement="A.6.2.4"]');
    await requirement.getByText('in progress', { exact: true }).waitFor();
    await requirement.getByText('counts at most as in progress until closed').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Root cause', { exact: true }).fill('No gate in the release pipeline');
    await page.getByLabel('Corrective action', { exact: true }).fill('Validation gate added to the pipeline');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Finding saved').waitFor();
    expect(await api('GET', `/orgs/${ORG}/findings/${findingId}`)).toMatchObject({
      rootCause: 'No gate in the release pipeline',
      correctiveAction: 'Validation gate added to the pipeline',
    });

    // An ineffective check is kept; the finding stays open and the cap stays.
    await page.getByRole('radio', { name: /not effective/ }).check();
    await page.getByLabel('Check note').fill('Two models still skipped validation');
    await page.getByRole('button', { name: 'Record effectiveness check' }).click();
    await page.getByText('Check recorded: the finding stays open').waitFor();
    await page.getByTestId('checks').getByText('not effective').waitFor();
    await cap.waitFor();
    await readmeScreenshot(page, 'finding.png');

    // An effective one closes it: the cap is gone, the requirement counts as implemented again.
    await page.getByRole('radio', { name: /effective \(closes/ }).check();
    await page.getByLabel('Check note').fill('The gate blocks unvalidated models');
    await page.getByRole('button', { name: 'Record effectiveness check' }).click();
    await page.getByRole('heading', { name: /major nonconformity closed/i }).waitFor();
    await expect.poll(() => cap.count()).toBe(0);
    await requirement.getByText('implemented', { exact: true }).waitFor();
    expect(await requirement.getByText('counts at most as in progress until closed').count()).toBe(0);
    expect(await page.getByTestId('checks').locator('tbody tr').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Record effectiveness check' }).count()).toBe(0);
    expect(await api('GET', `/orgs/${ORG}/findings/${findingId}`)).toMatchObject({
      state: 'closed',
      caps: false,
      checks: [{ effective: false }, { effective: true, checkedBy: { name: APPROVER.name } }],
    });
    expect((await api<{ status: string }>('GET', `/orgs/${ORG}/controls/A.6.2.4`)).status).toBe(
      'implemented',
    );

    // Back on the audit: complete it with a conclusion.
    await page.getByRole('link', { name: 'Internal audit 2026' }).click();
    await page.getByLabel('Conclusion').fill('The AIMS conforms, one major nonconformity corrected.');
    await page.getByRole('button', { name: 'Complete audit' }).click();
    await page.getByTestId('conclusion').getByText('one major nonconformity corrected').waitFor();
    expect(await api('GET', `/orgs/${ORG}/audits/${auditId}`)).toMatchObject({
      state: 'completed',
      findings: { open: 0, closed: 1 },
    });
    expect(await page.getByRole('heading', { name: 'Open a finding' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();

    // A key may change records but not check effectiveness: the page says who may.
    const keyed = await signInWithKey(writeKey);
    await keyed.page.goto(`${daemon.url}/#/findings/${dueFindingId}`);
    await keyed.page.getByText('An approver or owner, signed in as a person').waitFor();
    expect(await keyed.page.getByRole('button', { name: 'Record effectiveness check' }).count()).toBe(0);
    expect(keyed.errors).toEqual([]);
    await keyed.context.close();
  });

  it('holds a management review: inputs from the records, a note, a decision, closed with its hash', async () => {
    const { context, page, errors } = await signInAsApprover();
    await page.getByRole('link', { name: 'Management reviews' }).click();
    await page.getByText('No management review has been held yet.').waitFor();
    await page.getByLabel('Attendees (one per line)').fill(`${APPROVER.name}\nChief executive`);
    await page.getByRole('button', { name: 'Hold review' }).click();
    await page.getByRole('heading', { name: /^Management review of/ }).waitFor();
    const reviewId = decodeURIComponent(page.url().split('#/reviews/')[1]);
    const review = await api<{
      inputs: {
        scores: { frameworkId: string; to: number | null }[];
        nonconformities: { opened: number; closed: number; openAtEnd: number };
      };
      attendees: string[];
    }>('GET', `/orgs/${ORG}/management-reviews/${reviewId}`);
    expect(review.attendees).toEqual([APPROVER.name, 'Chief executive']);

    // The inputs as the records say: a score row per framework, nonconformities counted.
    const scores = page.getByTestId('review-scores');
    await expect.poll(() => scores.locator('tbody tr').count()).toBe(review.inputs.scores.length);
    const iso = review.inputs.scores.find((s) => s.frameworkId === 'iso-42001')!;
    await scores
      .locator('tr[data-framework="iso-42001"]')
      .getByText(iso.to === null ? '—' : `${iso.to.toFixed(1)}%`)
      .first()
      .waitFor();
    await page.getByRole('img', { name: /Score of every framework at the start and the end/ }).waitFor();
    const n = review.inputs.nonconformities;
    expect(n).toMatchObject({ opened: 2, closed: 1, openAtEnd: 1 });
    const nonconformities = page.getByTestId('review-nonconformities');
    await expect
      .poll(() => nonconformities.locator('dd').allTextContents())
      .toEqual([String(n.opened), String(n.closed), String(n.openAtEnd)]);
    await page.locator('[data-input="audits"]').getByRole('link', { name: 'Internal audit 2026' }).waitFor();

    // A note on an input, and a decision with an owner and a due date.
    await page.getByLabel('Notes on scores of every framework').fill('ISO score held despite the finding');
    await page.locator('[data-input="scores"]').getByRole('button', { name: 'Save note' }).click();
    await page.locator('[data-input="scores"]').getByText('Note saved').waitFor();
    await page.getByLabel('Decision', { exact: true }).fill('Add a validation gate to every pipeline');
    await page.getByLabel('Decision owner').fill(APPROVER.name);
    await page.getByLabel('Decision due').fill(at(45).slice(0, 10));
    await page.getByRole('button', { name: 'Add decision' }).click();
    await page.getByTestId('decisions').getByText('Add a validation gate to every pipeline').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'review.png');

    // Close: frozen, with the content hash the API gives.
    await page.getByRole('button', { name: 'Close review' }).click();
    await page.getByRole('button', { name: 'Yes, close and freeze' }).click();
    const closed = await (async () => {
      await page.getByTestId('content-hash').locator('code').waitFor();
      return api<{ state: string; contentHash: string; notes: Record<string, string>; decisions: unknown[] }>(
        'GET',
        `/orgs/${ORG}/management-reviews/${reviewId}`,
      );
    })();
    expect(closed).toMatchObject({
      state: 'closed',
      notes: { scores: 'ISO score held despite the finding' },
      decisions: [{ text: 'Add a validation gate to every pipeline', owner: APPROVER.name }],
    });
    expect(await page.getByTestId('content-hash').textContent()).toBe(closed.contentHash);
    expect(await page.getByRole('button', { name: 'Add decision' }).count()).toBe(0);
    expect(await page.getByLabel('Notes on scores of every framework').count()).toBe(0);
    await page.locator('[data-input="scores"]').getByText('ISO score held despite the finding').waitFor();

    // The decision is on the approver's agenda, and leads back to the review.
    await page.getByRole('link', { name: 'Due', exact: true }).click();
    const decision = page.locator('.due-group[data-kind="decision_due"]');
    await decision.getByRole('link', { name: /Add a validation gate/ }).click();
    await page.getByRole('heading', { name: /^Management review of/ }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/#/reviews/${reviewId}`);
    await page.getByRole('link', { name: 'Management reviews' }).first().click();
    await page.getByTestId('reviews').locator(`tr[data-review="${reviewId}"]`).getByText('closed').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
  it('keeps a document: drafted by one person, approved by another, in force while the next is drafted, two versions compared', async () => {
    const ada = await signInAsApprover();
    await ada.page.getByRole('link', { name: 'Documents', exact: true }).click();
    const create = ada.page.getByRole('form', { name: 'Create a document' });
    await create.getByLabel('Title').fill('AI policy');
    await create.getByLabel('Kind').selectOption('policy');
    expect(await create.getByLabel('Owner').inputValue()).toBe(APPROVER.name);
    await create.getByLabel('Review').selectOption('P1Y');
    await create.getByLabel('Framework', { exact: true }).selectOption('iso-42001');
    await create.getByLabel('Requirement', { exact: true }).selectOption('A.2.2');
    await create.getByRole('button', { name: 'Add requirement' }).click();
    await create.getByRole('button', { name: 'Create document' }).click();
    await ada.page.getByRole('heading', { name: /^AI policy/ }).waitFor();
    const documentId = decodeURIComponent(ada.page.url().split('#/documents/')[1]);
    await ada.page.getByTestId('published').getByText('Nothing is published yet').waitFor();

    // Ada writes version 1: she may not approve what she wrote.
    const v1 = '# AI policy\n\nWe build AI systems responsibly.\nEvery model is validated before release.\n';
    await ada.page.getByLabel('Content (Markdown)').fill(v1);
    await ada.page.getByLabel('Changelog').fill('First issue');
    await ada.page.getByRole('button', { name: 'Start draft' }).click();
    const draft = ada.page.getByTestId('draft');
    await draft.getByRole('heading', { name: /Draft: version 1/ }).waitFor();
    await draft.getByText('You wrote this draft: a second person approves and publishes it.').waitFor();
    expect(await ada.page.getByRole('button', { name: /Approve and publish/ }).count()).toBe(0);
    expect(await axeViolations(ada.page)).toEqual([]);

    // Omar, an owner, approves it: version 1 is in force, evidence on A.2.2, reviewed again in a year.
    const omar = await signInAs(OWNER);
    await omar.page.goto(`${daemon.url}/#/documents/${encodeURIComponent(documentId)}`);
    await omar.page.getByRole('button', { name: 'Approve and publish version 1' }).click();
    const published = omar.page.getByTestId('published');
    await published.getByText(`Version 1, published`).waitFor();
    await published.getByText(`approved by ${OWNER.name}`).waitFor();
    await published.getByTestId('content-1').getByText('Every model is validated before release.').waitFor();
    const afterV1 = await api<{
      published: { version: number; contentHash: string; evidence: { requirementId: string }[] };
      nextReviewAt: string;
    }>('GET', `/orgs/${ORG}/documents/${documentId}`);
    expect(afterV1.published).toMatchObject({ version: 1, evidence: [{ requirementId: 'A.2.2' }] });
    await published.getByText(afterV1.published.contentHash).waitFor();
    await omar.page.getByTestId('next-review').getByText(afterV1.nextReviewAt.slice(0, 10)).waitFor();

    // Omar drafts version 2 from version 1: version 1 stays in force, shown beside the draft.
    const v2 = v1.replace(
      'Every model is validated before release.',
      'Every model and every update is validated.',
    );
    await omar.page.getByLabel('Content (Markdown)').fill(v2);
    await omar.page.getByLabel('Changelog').fill('Updates are validated too');
    await omar.page.getByRole('button', { name: 'Start draft' }).click();
    await omar.page
      .getByTestId('draft')
      .getByRole('heading', { name: /Draft: version 2/ })
      .waitFor();
    await published.getByText('Version 1, published').waitFor();
    await published.getByText('Every model is validated before release.').waitFor();
    await omar.page
      .getByTestId('draft')
      .getByText('Every model and every update is validated.')
      .first()
      .waitFor();
    expect(omar.errors).toEqual([]);
    await omar.context.close();

    // Ada did not write version 2: she approves it; version 1 is superseded, still listed.
    await ada.page.reload();
    await ada.page.getByRole('button', { name: 'Approve and publish version 2' }).click();
    await ada.page.getByTestId('published').getByText('Version 2, published').waitFor();
    const versions = ada.page.getByTestId('versions');
    await versions.locator('tr[data-version="1"]').getByText('superseded').waitFor();
    await versions.locator('tr[data-version="2"]').getByText('published').waitFor();
    const listed = await api<{ versions: { version: number; state: string }[] }>(
      'GET',
      `/orgs/${ORG}/documents/${documentId}/versions`,
    );
    expect(listed.versions.map((v) => [v.version, v.state])).toEqual([
      [2, 'published'],
      [1, 'superseded'],
    ]);

    // The diff of version 1 → version 2 (the default pair): one line out, one line in.
    const diff = ada.page.getByTestId('diff');
    await diff.locator('.diff-del').getByText('-Every model is validated before release.').waitFor();
    await diff.locator('.diff-add').getByText('+Every model and every update is validated.').waitFor();
    expect(await axeViolations(ada.page)).toEqual([]);
    await readmeScreenshot(ada.page, 'document.png');

    // The list shows the version in force and the next review.
    await ada.page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: 'Documents' })
      .click();
    await ada.page
      .getByTestId('documents')
      .locator('tr[data-document="AI policy"]')
      .getByText(/version 2 of/)
      .waitFor();
    // Its next review is on its owner's agenda, and leads back to it.
    await ada.page.getByRole('link', { name: 'Due', exact: true }).click();
    await ada.page
      .locator(`.due-group[data-kind="document_review"] tr[data-resource="${documentId}"]`)
      .getByRole('link', { name: /AI policy/ })
      .click();
    await ada.page.getByTestId('published').getByText('Version 2, published').waitFor();
    expect(ada.errors).toEqual([]);
    await ada.context.close();
  });
  it('adds a webhook (its secret shown once), logs its deliveries to a real receiver, and deletes it', async () => {
    // Webhooks are an owner's page: an approver does not see it.
    const ada = await signInAsApprover();
    expect(await ada.page.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await ada.context.close();

    const { context, page, errors } = await signInAs(OWNER);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('Description').fill('compliance chat channel');
    await page.getByRole('checkbox', { name: /^evidence\.created/ }).check();
    await page.getByRole('checkbox', { name: /^finding\.opened/ }).check();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const shown = page.getByTestId('webhook-secret');
    const secret = await shown.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const listed = await api<{ webhooks: { webhookId: string; url: string; events: string[] }[] }>(
      'GET',
      `/orgs/${ORG}/webhooks`,
    );
    expect(listed.webhooks).toEqual([
      expect.objectContaining({ url: receiver.url, events: ['evidence.created', 'finding.opened'] }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const row = page.getByTestId('webhooks').locator(`tr[data-webhook="${receiver.url}"]`);
    await row.getByText('evidence.created, finding.opened').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => shown.count()).toBe(0);
    await page.reload();
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);

    // A change delivers a signed event to the receiver, and the log shows it delivered.
    await api('POST', `/orgs/${ORG}/controls/A.7.4/evidence`, {
      type: 'link',
      title: 'Data quality report',
      fileUrl: 'https://example.com/dq',
    });
    const [request] = await receiver.waitFor(ofType('evidence.created'));
    expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({
      type: 'evidence.created',
    });
    await row.getByRole('button', { name: `Deliveries of ${receiver.url}` }).click();
    const log = page.getByTestId('deliveries');
    const delivered = log.locator('tr[data-event="evidence.created"][data-outcome="delivered"]');
    await expect
      .poll(async () => {
        await log.getByRole('button', { name: 'Refresh' }).click();
        return delivered.count();
      })
      .toBe(1);
    await delivered.getByText('200', { exact: true }).waitFor();

    // A receiver that answers 500: the attempt is logged, and another follows.
    receiver.answer(500);
    const audits = await api<{ audits: { auditId: string; state: string }[] }>('GET', `/orgs/${ORG}/audits`);
    const open = audits.audits.find((a) => a.state !== 'completed')!;
    await api('POST', `/orgs/${ORG}/audits/${open.auditId}/findings`, {
      kind: 'observation',
      requirements: [],
      description: 'Webhook test observation',
    });
    const retrying = log.locator('tr[data-event="finding.opened"][data-outcome="retrying"]');
    await expect
      .poll(async () => {
        await log.getByRole('button', { name: 'Refresh' }).click();
        return retrying.count();
      })
      .toBe(1);
    await retrying.getByText('500', { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'webhooks.png');

    // Delete, after a confirmation.
    await row.getByRole('button', { name: `Delete ${receiver.url}` }).click();
    await row.getByRole('button', { name: `Yes, delete ${receiver.url}` }).click();
    await page.getByText('Webhook deleted').waitFor();
    await expect.poll(() => row.count()).toBe(0);
    expect((await api<{ webhooks: unknown[] }>('GET', `/orgs/${ORG}/webhooks`)).webhooks).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
