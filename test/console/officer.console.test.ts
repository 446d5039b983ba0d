import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';
import { layoutScreenshot } from '../support/screenshots.js';

/**
 * An officer's first hour in the web console, in a real browser (Debian's Chromium through playwright-core)
 * against a real daemon on PostgreSQL, on a desktop and a phone screen: a link to a requirement brings its
 * record into view, highlighted; the status form starts from the organization's own record, never from an
 * inference; every framework is listed with its score; the gap list is collapsed to its top items; the
 * navigation stays in view and a new page opens at its top; AI systems are edited, retired and linked to their
 * attestations and gaps; search offers examples, a framework filter and the org's status on each hit;
 * conflicts are collapsible and say their values in words.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const ORG = 'acme';
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type Size = keyof typeof SIZES;
const CATALOG_ID = 'officer-test-catalog';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EPOCH = '2026-12-01';

let daemon: Daemon;
let dropDatabase: () => Promise<void>;
let browser: Browser;
let writeKey: string;
let screenerId: string;

interface RequirementEntry {
  requirementId: string;
  status: string;
  assessment: string;
  note: string | null;
  inferred: { status: string; from: { frameworkId: string; requirementId: string }[] };
}

const api = <T = Record<string, unknown>>(method: string, url: string, body?: unknown, key = ADMIN_KEY) =>
  callApi<T>(daemon.url, key, method, url, body);

const requirementUrl = (frameworkId: string, requirementId: string) =>
  `/orgs/${ORG}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}`;
/** Polls until the page settles: loads and scrolls end when they end, never after a fixed wait. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });
const label = (value: string) => value.replace(/_/g, ' ');
const scoreText = (score: number | null) => (score === null ? '—' : `${score.toFixed(1)}%`);

/** A fresh browser context of the given size, signed in with the write key; page errors fail the test. */
async function signIn(size: Size): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (/status of 404/.test(message.text()) && message.location().url.includes('/soa/checks')) return;
    errors.push(message.text());
  });
  await page.goto(`${daemon.url}/`);
  await page.getByRole('button', { name: 'Use an API key' }).click();
  await page.getByLabel('API key').fill(writeKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('score').waitFor();
  return { context, page, errors };
}

/** The little of the browser's DOM the page functions below use (the tests compile without the DOM library). */
interface WebElement {
  contains(other: unknown): boolean;
  open?: boolean;
  validity?: { valueMissing: boolean };
}
interface Web {
  document: { elementFromPoint(x: number, y: number): unknown };
  getComputedStyle(element: unknown): { boxShadow: string };
}

/**
 * Whether the element lies wholly inside the viewport and nothing (a sticky bar, say) covers its centre.
 */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  if (!box || box.height === 0) return false;
  if (box.y < 0 || box.x < 0 || box.y + box.height > viewport.height || box.x + box.width > viewport.width) {
    return false;
  }
  return locator.evaluate(
    (element, [x, y]) => {
      const hit = (globalThis as unknown as Web).document.elementFromPoint(x, y);
      return hit !== null && (hit === element || (element as unknown as WebElement).contains(hit));
    },
    [box.x + box.width / 2, box.y + box.height / 2],
  );
}

/** The record panel of a requirement: open, its heading in view, and highlighted as the link's target. */
async function expectRecordInView(page: Page, requirementId: string) {
  const panel = page.getByTestId('requirement-panel');
  const heading = panel.locator('h2').first();
  await poll(() => heading.textContent()).toBe(requirementId);
  await poll(() => inViewport(page, heading)).toBe(true);
  // The panel itself starts inside the viewport.
  await poll(async () => {
    const box = await panel.boundingBox();
    return box !== null && box.y >= 0 && box.y < page.viewportSize()!.height;
  }).toBe(true);
  expect(
    await panel.evaluate((element) => (globalThis as unknown as Web).getComputedStyle(element).boxShadow),
  ).not.toBe('none');
}

/** Serious or critical accessibility violations axe-core finds on the page. */
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

/** A small OSCAL catalog, imported as a framework of its own. */
const catalog = () => ({
  catalog: {
    uuid: '7d0c4b8e-2f6a-4e1b-9c3d-5a6b7c8d9e0f',
    metadata: {
      title: 'Officer Test Catalog',
      'last-modified': '2026-01-01T00:00:00Z',
      version: '1',
      'oscal-version': '1.2.1',
    },
    groups: [
      {
        id: 'ot',
        title: 'Oversight',
        controls: [
          {
            id: 'ot-1',
            title: 'Name an AI officer',
            props: [{ name: 'label', value: 'OT-1' }],
            parts: [{ id: 'ot-1_smt', name: 'statement', prose: 'Name an officer for AI systems.' }],
          },
        ],
      },
    ],
  },
});

beforeAll(async () => {
  const database = await createScratchDatabase();
  dropDatabase = database.drop;
  [daemon, browser] = await Promise.all([
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  writeKey = (
    await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read', 'write', 'export'] })
  ).key;
  await api('POST', '/cte/frameworks/import', catalog());
  for (const controlId of ['A.2.2', 'A.5.2', 'A.6.2.4', 'A.6.2.6', 'A.6.2.8', 'A.8.2']) {
    await api('PUT', `/orgs/${ORG}/controls/${controlId}/status`, {
      status: 'implemented',
      reviewer: 'alice',
    });
  }
  await api('PUT', `${requirementUrl('eu-ai-act', 'Art. 26(6)')}/status`, {
    status: 'in_progress',
    reviewer: 'alice',
    note: 'pilot running',
  });
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
        { frameworkId: 'eu-ai-act', requirementId: 'Art. 14' },
      ],
    },
  });
  for (let i = 0; i < 3; i += 1) {
    await api('POST', `/orgs/${ORG}/attestations`, {
      attestationId: `screener-${i}`,
      level: 'L0',
      epochId: EPOCH,
      // The screener's by name (twice) and the support bot's once.
      systemId: i < 2 ? 'CV screener' : 'Support bot',
      controlIds: ['A.6.2.6'],
      timestamp: new Date(Date.parse('2026-12-01T09:00:00.000Z') + i * 60_000).toISOString(),
      claims: { drift: i / 100 },
    });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await dropDatabase?.();
});

describe("an officer's first hour in the console", { timeout: 120_000 }, () => {
  for (const size of Object.keys(SIZES) as Size[]) {
    it(`brings a requirement's record into view, highlighted, from every link to it (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      // From the overview's critical gaps.
      const critical = page.getByTestId('critical-gaps').getByRole('link').first();
      const criticalId = (await critical.textContent())!;
      await critical.click();
      await expectRecordInView(page, criticalId);

      // From the tenth gap of a framework's list, the last of its top items.
      await page.goto(`${daemon.url}/#/frameworks/eu-ai-act`);
      const gaps = await api<{ gaps: { controlId: string }[] }>('GET', `/cte/gaps/eu-ai-act?orgId=${ORG}`);
      expect(gaps.gaps.length).toBeGreaterThan(10);
      const tenth = gaps.gaps[9].controlId;
      await page.getByTestId('gap-list').getByRole('link', { name: tenth, exact: true }).click();
      await expectRecordInView(page, tenth);
      // The list shows the chosen requirement's row, marked.
      await poll(() => page.locator(`tr[data-requirement="${tenth}"]`).getAttribute('aria-selected')).toBe(
        'true',
      );
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'record', size);

      // From a search hit.
      await page.goto(`${daemon.url}/#/search`);
      await page.getByLabel('Search every framework').fill('keep the logs of a high-risk system');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      const hit = page.getByTestId('search-results').locator(':scope > li').first();
      const hitId = (await hit.getAttribute('data-requirement'))!;
      await hit.getByRole('link').first().click();
      await expectRecordInView(page, hitId);

      // From a risk's treatment.
      const risks = await api<{ risks: { riskId: string; title: string }[] }>('GET', `/orgs/${ORG}/risks`);
      const risk = risks.risks.find((r) => r.title === 'Bias in ranking')!;
      await page.goto(`${daemon.url}/#/risks/${risk.riskId}`);
      await page
        .getByTestId('treatment-requirements')
        .getByRole('link', { name: 'Art. 14', exact: true })
        .click();
      await expectRecordInView(page, 'Art. 14');

      // A deep link opened in a new page.
      await page.goto(`${daemon.url}/#/frameworks/eu-ai-act/${encodeURIComponent('Art. 26(6)')}`);
      await expectRecordInView(page, 'Art. 26(6)');
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('starts the status form from the direct record, never from what the crosswalk infers', async () => {
    // A requirement with no record of its own whose status the crosswalk infers from the ISO records.
    let inferred: (RequirementEntry & { frameworkId: string }) | undefined;
    for (const frameworkId of ['eu-ai-act', 'nist-ai-rmf', 'iso-27001', 'gdpr', 'iso-42001-clauses']) {
      const list = await api<{ requirements: RequirementEntry[] }>(
        'GET',
        `/orgs/${ORG}/frameworks/${frameworkId}/requirements?assessment=inferred`,
      );
      const found = list.requirements.find((r) => r.inferred.status !== 'not_started');
      if (found) {
        inferred = { ...found, frameworkId };
        break;
      }
    }
    expect(inferred).toBeDefined();
    const { frameworkId, requirementId } = inferred!;
    const { context, page, errors } = await signIn('desktop');
    await page.goto(`${daemon.url}/#/frameworks/${frameworkId}/${encodeURIComponent(requirementId)}`);
    const panel = page.getByTestId('requirement-panel');
    await panel.getByText('Set status').waitFor();
    const status = panel.getByLabel('New status');
    // No record: the form starts empty; the inference is shown beside it, as information.
    expect(await status.inputValue()).toBe('');
    expect(await panel.getByLabel('Note').inputValue()).toBe('');
    const source = inferred!.inferred.from[0];
    await panel
      .getByTestId('inferred-status')
      .getByText(
        `inferred: ${label(inferred!.inferred.status)} via ${source.frameworkId} ${source.requirementId}`,
      )
      .waitFor();
    // Saving a note alone is refused by the form: no claim is made that nobody made.
    await panel.getByLabel('Note').fill('discussed with the team');
    await panel.getByRole('button', { name: 'Save status' }).click();
    expect(
      await status.evaluate((element) => (element as unknown as WebElement).validity?.valueMissing),
    ).toBe(true);
    const after = await api<RequirementEntry>('GET', requirementUrl(frameworkId, requirementId));
    expect(after).toMatchObject({ assessment: 'inferred', note: null });

    // A direct record: the form starts from the org's own status and note, and a new note keeps the status.
    await page.goto(`${daemon.url}/#/frameworks/eu-ai-act/${encodeURIComponent('Art. 26(6)')}`);
    await panel.getByRole('heading', { name: 'Art. 26(6)' }).waitFor();
    await poll(() => status.inputValue()).toBe('in_progress');
    expect(await panel.getByLabel('Note').inputValue()).toBe('pilot running');
    await panel.getByLabel('Note').fill('pilot running on two sites');
    await panel.getByLabel('Reviewer', { exact: true }).fill('carol');
    await panel.getByRole('button', { name: 'Save status' }).click();
    await panel.getByText('Status saved').waitFor();
    expect(await api<RequirementEntry>('GET', requirementUrl('eu-ai-act', 'Art. 26(6)'))).toMatchObject({
      status: 'in_progress',
      assessment: 'direct',
      note: 'pilot running on two sites',
    });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists every framework, imported catalogs too, with the org's score and links to records and gaps", async () => {
    const { context, page, errors } = await signIn('desktop');
    await page.getByRole('link', { name: 'Frameworks', exact: true }).click();
    const table = page.getByTestId('frameworks');
    const listed = await api<{ frameworks: { frameworkId: string; name: string; score: number | null }[] }>(
      'GET',
      `/orgs/${ORG}/frameworks`,
    );
    expect(listed.frameworks.map((f) => f.frameworkId)).toContain(CATALOG_ID);
    for (const framework of listed.frameworks) {
      const row = table.locator(`tr[data-framework="${framework.frameworkId}"]`);
      await poll(() => row.locator('.fw-score').textContent()).toBe(scoreText(framework.score));
      expect(await row.getByRole('link', { name: framework.name, exact: true }).getAttribute('href')).toBe(
        `#/frameworks/${encodeURIComponent(framework.frameworkId)}`,
      );
    }
    // The gaps of a framework, counted as the API counts them, and its records.
    const gaps = await api<{ gaps: unknown[] }>('GET', `/cte/gaps/eu-ai-act?orgId=${ORG}`);
    const row = table.locator('tr[data-framework="eu-ai-act"]');
    await row.getByRole('link', { name: `${gaps.gaps.length} gaps` }).click();
    await poll(() => page.getByTestId('gap-summary').count()).toBe(1);
    await page.getByRole('button', { name: `Show all ${gaps.gaps.length}` }).waitFor();
    await page.goBack();
    await row.getByRole('link', { name: 'Records' }).click();
    await page.getByRole('heading', { name: 'Requirements' }).waitFor();
    await page.locator('table.requirements tr[data-requirement]').first().waitFor();
    await page.goBack();
    await table.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await layoutScreenshot(page, 'frameworks', 'desktop');
    await page.setViewportSize(SIZES.phone);
    await layoutScreenshot(page, 'frameworks', 'phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('collapses the long gap list to its top ten, with "Show all N"', async () => {
    const { context, page, errors } = await signIn('desktop');
    const gaps = await api<{ gaps: { controlId: string }[] }>('GET', `/cte/gaps/eu-ai-act?orgId=${ORG}`);
    await page.goto(`${daemon.url}/#/frameworks/eu-ai-act`);
    const list = page.getByTestId('gap-list');
    await poll(() => list.locator(':scope > li').count()).toBe(10);
    expect(await list.locator(':scope > li a').allTextContents()).toEqual(
      gaps.gaps.slice(0, 10).map((g) => g.controlId),
    );
    await page.getByRole('button', { name: `Show all ${gaps.gaps.length}` }).click();
    await poll(() => list.locator(':scope > li').count()).toBe(gaps.gaps.length);
    await page.getByRole('button', { name: 'Show the top 10' }).click();
    await poll(() => list.locator(':scope > li').count()).toBe(10);
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`keeps the navigation in view and opens each page at its top (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      await page.goto(`${daemon.url}/#/frameworks/eu-ai-act`);
      await page.locator('tr[data-requirement]').first().waitFor();
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
      await poll(() => page.evaluate<number>('window.scrollY')).toBeGreaterThan(300);
      // The current page's entry stays in view.
      await poll(() => inViewport(page, nav.locator('[aria-current="page"]'))).toBe(true);
      await layoutScreenshot(page, 'navigation', size);
      // Another page (a long one) opens at its top.
      await nav.getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('heading', { name: 'Overview · Acme AI' }).waitFor();
      await poll(() => page.evaluate<number>('window.scrollY')).toBe(0);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`edits and retires an AI system, linked to its attestations and gaps (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      await page.goto(`${daemon.url}/#/systems`);
      await page.getByTestId('systems').getByRole('link', { name: 'CV screener' }).click();
      const form = page.getByRole('form', { name: 'Change the system' });
      await form.getByLabel('Description').fill('Ranks job applicants by their CVs');
      await form.getByLabel('Owner').fill('HR analytics');
      await form.getByLabel('Purpose').fill('Shortlisting applicants');
      await form.getByLabel('Lifecycle stage').selectOption('validation');
      await form.getByRole('button', { name: 'Save system' }).click();
      await form.getByText('System saved').waitFor();
      expect(await api('GET', `/orgs/${ORG}/ai-systems/${screenerId}`)).toMatchObject({
        description: 'Ranks job applicants by their CVs',
        owner: 'HR analytics',
        purpose: 'Shortlisting applicants',
        lifecycleStage: 'validation',
        riskLevel: 'high',
      });
      await page.getByTestId('system-facts').getByText('Ranks job applicants by their CVs').waitFor();

      // Its attestations (and not the other system's), each linked to its epoch.
      const attestations = page.getByTestId('system-attestations');
      await attestations.getByText('screener-0').waitFor();
      await attestations.getByText('screener-1').waitFor();
      expect(await attestations.getByText('screener-2').count()).toBe(0);
      expect(await attestations.getByRole('link', { name: EPOCH }).first().getAttribute('href')).toBe(
        `#/attestations/${EPOCH}`,
      );
      // The gaps of the requirements that treat its risks: what is not implemented yet.
      const gaps = page.getByTestId('system-gaps');
      await gaps.getByRole('link', { name: 'A.7.4', exact: true }).waitFor();
      expect(await gaps.getByRole('link', { name: 'A.6.2.4', exact: true }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'system', size);
      await gaps.getByRole('link', { name: 'Art. 14', exact: true }).click();
      await expectRecordInView(page, 'Art. 14');
      await page.goBack();

      // An unacceptable system is a prohibited practice: the page says so and links to Art. 5.
      await form.getByLabel('Risk tier').selectOption('unacceptable');
      await form.getByRole('button', { name: 'Save system' }).click();
      const notice = page.getByTestId('prohibited-practice');
      await notice.getByText('prohibited practice under the EU AI Act, Art. 5').waitFor();
      await notice.scrollIntoViewIfNeeded();
      await layoutScreenshot(page, 'system-unacceptable', size);
      await notice.getByRole('link', { name: /Art\. 5/ }).click();
      await expectRecordInView(page, 'Art. 5(1)');
      await page.goBack();

      await page.getByRole('button', { name: 'Retire the system' }).click();
      await page.getByText('System retired').waitFor();
      expect(await api('GET', `/orgs/${ORG}/ai-systems/${screenerId}`)).toMatchObject({
        lifecycleStage: 'retired',
      });
      // Back as it was for the other screen size.
      await api('PUT', `/orgs/${ORG}/ai-systems/${screenerId}`, {
        riskLevel: 'high',
        lifecycleStage: 'deployed',
      });
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`searches from a wide box, with examples, a framework filter and the org's status (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      // What the search page asks of the API: its searches, and any requirement list it would read statuses from.
      const searches: {
        orgId: string | null;
        body: { query: string; limit: number; frameworkId?: string };
      }[] = [];
      const lists: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.endsWith('/cte/embeddings/distance')) {
          searches.push({ orgId: url.searchParams.get('orgId'), body: request.postDataJSON() });
        }
        if (/\/frameworks\/[^/]+\/requirements$/.test(url.pathname)) lists.push(url.pathname);
      });
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Search', exact: true })
        .click();
      const box = page.getByLabel('Search every framework');
      const [boxSize, mainSize] = await Promise.all([box.boundingBox(), page.locator('main').boundingBox()]);
      expect(boxSize!.width).toBeGreaterThan(mainSize!.width * 0.6);
      // The empty page offers example questions; one click runs one.
      const examples = page.getByTestId('search-examples').getByRole('button');
      expect(await examples.count()).toBeGreaterThanOrEqual(3);
      const example = (await examples.first().textContent())!;
      await examples.first().click();
      await poll(() => box.inputValue()).toBe(example);
      const hits = page.getByTestId('search-results').locator(':scope > li');
      await hits.first().waitFor();
      // Each hit shows the organization's status of the requirement.
      const first = hits.first();
      const frameworkId = (await first.getAttribute('data-framework'))!;
      const requirementId = (await first.getAttribute('data-requirement'))!;
      const record = await api<RequirementEntry>('GET', requirementUrl(frameworkId, requirementId));
      await poll(() => first.getByTestId('hit-status').textContent()).toBe(
        label(record.status) + (record.assessment === 'inferred' ? ' (inferred)' : ''),
      );
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'search', size);
      // The framework filter keeps that framework's hits only.
      const frameworksOfHits = async () =>
        new Set(await Promise.all((await hits.all()).map((hit) => hit.getAttribute('data-framework'))));
      await page.getByLabel('Framework', { exact: true }).selectOption('gdpr');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await poll(frameworksOfHits).toEqual(new Set(['gdpr']));
      // The API searches in the framework chosen: ISO 27001's clauses are far from software screening CVs
      // among every framework's requirements, yet the page lists their twenty nearest, each with its status.
      await box.fill('An algorithm is screening CVs');
      await page.getByLabel('Framework', { exact: true }).selectOption('iso-27001-clauses');
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await poll(frameworksOfHits).toEqual(new Set(['iso-27001-clauses']));
      expect(await hits.count()).toBe(20);
      const clause = hits.first();
      const clauseRecord = await api<RequirementEntry>(
        'GET',
        requirementUrl('iso-27001-clauses', (await clause.getAttribute('data-requirement'))!),
      );
      await poll(() => clause.getByTestId('hit-status').textContent()).toBe(
        label(clauseRecord.status) + (clauseRecord.assessment === 'inferred' ? ' (inferred)' : ''),
      );
      expect(searches).toContainEqual({
        orgId: ORG,
        body: { query: 'An algorithm is screening CVs', limit: 20, frameworkId: 'iso-27001-clauses' },
      });
      // The statuses came with the hits: no requirement list was read for them.
      expect(lists).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`shows conflicts collapsible, with values and durations in words (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      const listed = await api<{ conflicts: { conflictId: string }[] }>('GET', '/cte/conflicts');
      expect(listed.conflicts.length).toBeGreaterThan(3);
      await page.goto(`${daemon.url}/#/conflicts`);
      const items = page.getByTestId('conflicts').locator('details');
      await poll(() => items.count()).toBe(listed.conflicts.length);
      // The first few are open, the rest collapsed.
      expect(await items.evaluateAll((all) => all.map((d) => (d as unknown as WebElement).open))).toEqual(
        listed.conflicts.map((_, i) => i < 3),
      );
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'conflicts', size);
      // Each parameter a conflict turns on, with the value the requirement sets, in words.
      await page
        .locator('details[data-conflict="CF-01"]')
        .getByText('Art. 19 · retention minimum: at least 6 months (logs)')
        .waitFor();
      // A collapsed one opens on a click.
      const incidents = page.locator('details[data-conflict="CF-05"]');
      expect(await incidents.evaluate((d) => (d as unknown as WebElement).open)).toBe(false);
      await incidents.locator('summary').click();
      await incidents
        .getByText('Art. 73(2) · notification deadline: within 15 days (incident report)')
        .waitFor();
      // Opened one by one, none says a duration in ISO 8601 notation (P6M, PT72H) or a bare number.
      await page.getByRole('button', { name: 'Expand all' }).click();
      expect(await items.evaluateAll((all) => all.every((d) => (d as unknown as WebElement).open))).toBe(
        true,
      );
      const text = (await page.getByTestId('conflicts').textContent())!;
      expect(text).not.toMatch(/\bP(?:\d+[YMWD])+(?:T\d+[HMS])*\b|\bPT\d+[HMS]\b/);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
