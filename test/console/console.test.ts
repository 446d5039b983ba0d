import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { type Daemon, startDaemon } from '../support/daemon.js';
import { readmeScreenshot } from '../support/screenshots.js';

/**
 * The web console in a real browser (Debian's Chromium through playwright-core) against a real daemon on
 * PostgreSQL: each test signs in with a real key and checks what the page shows against the API.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const ORG = 'acme';
const EPOCH = '2026-11-20';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let daemon: Daemon;
let dropDatabase: () => Promise<void>;
let browser: Browser;
let writeKey: string;
let readKey: string;

async function api<T = Record<string, unknown>>(
  method: string,
  url: string,
  body?: unknown,
  key = ADMIN_KEY,
): Promise<T> {
  const response = await fetch(`${daemon.url}/api/v1${url}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const scoreText = (score: number | null) => (score === null ? '—' : `${score.toFixed(1)}%`);

/** A fresh browser context (its own session storage) on a signed-in console; page errors fail the test. */
async function signIn(
  key: string,
): Promise<{ context: BrowserContext; page: Page; errors: string[]; loadMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const started = performance.now();
  await page.goto(`${daemon.url}/`);
  // People sign in with email and password; a key is the form's second option.
  await page.getByRole('button', { name: 'Use an API key' }).click();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('score').waitFor();
  return { context, page, errors, loadMs: performance.now() - started };
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

beforeAll(async () => {
  const database = await createScratchDatabase();
  dropDatabase = database.drop;
  [daemon, browser] = await Promise.all([
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  await api('POST', '/orgs', { orgId: 'beta', name: 'Beta Labs' });
  writeKey = (
    await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read', 'write', 'export'] })
  ).key;
  readKey = (await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read'] })).key;
  await api('PUT', `/orgs/${ORG}/controls/A.2.2/status`, { status: 'implemented', reviewer: 'alice' });
  await api('PUT', `/orgs/${ORG}/controls/A.5.2/status`, { status: 'in_progress', reviewer: 'alice' });
  await api('POST', `/orgs/${ORG}/controls/A.2.2/evidence`, {
    type: 'link',
    title: 'Policy review minutes',
    fileUrl: 'https://files.example.com/minutes',
    expiresAt: new Date(Date.now() + 5 * 86_400_000).toISOString(),
  });
  await api('POST', `/orgs/${ORG}/ai-systems`, {
    name: 'Support bot',
    owner: 'cx',
    purpose: 'first-line support',
    riskLevel: 'high',
  });
  const base = Date.parse('2026-11-20T08:00:00.000Z');
  for (let i = 0; i < 7; i += 1) {
    await api('POST', `/orgs/${ORG}/attestations`, {
      attestationId: `att-${i}`,
      level: 'L0',
      epochId: EPOCH,
      // By the system's name: the browser's epoch check must rebuild the content as posted.
      ...(i % 2 ? { systemId: 'Support bot' } : {}),
      controlIds: ['A.6.2.6'],
      timestamp: new Date(base + (i % 3) * 60_000).toISOString(),
      claims: { drift: i / 100, note: 'ünïcødé ✓' },
    });
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await dropDatabase?.();
});

describe('web console', { timeout: 60_000 }, () => {
  it('serves the page without a key, with strict security headers', async () => {
    const response = await fetch(`${daemon.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    // The API still needs a key; /me tells the console what a key may do.
    expect((await fetch(`${daemon.url}/api/v1/me`)).status).toBe(401);
    expect(await api('GET', '/me', undefined, readKey)).toMatchObject({
      orgId: ORG,
      platform: false,
      scopes: ['read'],
      can: { read: true, write: false, export: false, admin: false },
    });
    expect(await api('GET', '/me')).toMatchObject({ orgId: null, platform: true, can: { write: true } });
  });

  it('signs in, shows the score, every framework, gaps and attestations, and passes an accessibility check', async () => {
    const { context, page, errors, loadMs } = await signIn(writeKey);
    // A signed-in tab opening the console again: page, scripts, sign-in and the overview's first paint.
    const started = performance.now();
    await page.reload();
    await page.getByTestId('score').waitFor();
    console.log(
      `console: sign-in to a visible score ${loadMs.toFixed(0)} ms; reload to a visible score ${(performance.now() - started).toFixed(0)} ms`,
    );
    const compliance = await api<{ score: number | null }>('GET', `/orgs/${ORG}/compliance`);
    await expect.poll(() => page.getByTestId('score').textContent()).toBe(scoreText(compliance.score));
    const frameworks = await api<{ frameworks: { frameworkId: string }[] }>('GET', `/orgs/${ORG}/frameworks`);
    for (const { frameworkId } of frameworks.frameworks) {
      await page.locator(`tr[data-framework="${frameworkId}"]`).waitFor();
    }
    await page.getByTestId('critical-gaps').or(page.getByText('No critical gap.')).waitFor();
    await page.getByRole('link', { name: EPOCH }).first().waitFor();
    await page.getByTestId('expiring').getByText('Policy review minutes').waitFor();
    // The key is in this tab's session storage only: not in the URL, not in a cookie.
    expect(page.url()).not.toContain(writeKey);
    expect(await context.cookies()).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'overview.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('changes a status and adds evidence: score, gaps and history move', async () => {
    const { context, page, errors } = await signIn(writeKey);
    const before = await api<{ score: number }>('GET', `/orgs/${ORG}/compliance`);
    const gapsBefore = await api<{ gaps: unknown[] }>('GET', `/cte/gaps/iso-42001?orgId=${ORG}`);
    await page.goto(`${daemon.url}/#/frameworks/iso-42001/A.6.2.8`);
    const panel = page.getByTestId('requirement-panel');
    await panel.getByText('Set status').waitFor();
    await panel.getByLabel('New status').selectOption('implemented');
    await panel.getByLabel('Reviewer', { exact: true }).fill('carol');
    await panel.getByLabel('Note').fill('logging on in production');
    await panel.getByRole('button', { name: 'Save status' }).click();
    await panel.getByText('Status saved').waitFor();

    const after = await api<{ score: number }>('GET', `/orgs/${ORG}/compliance`);
    expect(after.score).toBeGreaterThan(before.score);
    await expect.poll(() => page.getByTestId('score').textContent()).toBe(scoreText(after.score));
    const gapsAfter = await api<{ gaps: unknown[]; summary: Record<string, number> }>(
      'GET',
      `/cte/gaps/iso-42001?orgId=${ORG}`,
    );
    expect(gapsAfter.gaps.length).toBe(gapsBefore.gaps.length - 1);
    await expect
      .poll(() => page.getByTestId('gap-summary').textContent())
      .toBe(
        `${gapsAfter.summary.critical} critical · ${gapsAfter.summary.important} important · ${gapsAfter.summary.minor} minor`,
      );
    // Today's history point is the live score.
    await page.getByText('Data table').first().click();
    await expect
      .poll(() => page.locator('.chart tbody tr:last-child td:last-child').first().textContent())
      .toBe(scoreText(after.score));
    await page.locator('tr[data-requirement="A.6.2.8"]').getByText('implemented').waitFor();

    await panel.getByLabel('Title').fill('Logging runbook <b>v2</b>');
    await panel.getByLabel('File URL').fill('https://files.example.com/runbook.pdf');
    await panel.getByRole('button', { name: 'Add evidence' }).click();
    await panel.getByText('Evidence added').waitFor();
    // User text is rendered as text, never as markup.
    await panel.getByTestId('evidence-list').getByText('Logging runbook <b>v2</b>').waitFor();
    const evidence = await api<{ total: number }>('GET', `/orgs/${ORG}/controls/A.6.2.8/evidence`);
    expect(evidence.total).toBe(1);
    await readmeScreenshot(page, 'framework.png');

    // Another framework: the same panel edits its own record.
    await page.goto(`${daemon.url}/#/frameworks/eu-ai-act/${encodeURIComponent('Art. 26(6)')}`);
    await panel.getByText('What the crosswalk infers').waitFor();
    await panel.getByLabel('New status').selectOption('in_progress');
    await panel.getByLabel('Reviewer', { exact: true }).fill('dave');
    await panel.getByRole('button', { name: 'Save status' }).click();
    await panel.getByText('Status saved').waitFor();
    const record = await api<{ status: string; assessment: string }>(
      'GET',
      `/orgs/${ORG}/frameworks/eu-ai-act/requirements/${encodeURIComponent('Art. 26(6)')}`,
    );
    expect(record).toMatchObject({ status: 'in_progress', assessment: 'direct' });
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates and verifies a snapshot, downloads an SoA, opens the heatmap', async () => {
    const { context, page, errors } = await signIn(writeKey);
    await page.goto(`${daemon.url}/#/snapshots`);
    await page.getByLabel('Label').fill('Q4 audit');
    await page.getByRole('button', { name: 'Create snapshot' }).click();
    await page.getByText('Snapshot created').waitFor();
    const row = page.locator('tr[data-snapshot="Q4 audit"]');
    await row.getByRole('button', { name: 'Verify the hash of Q4 audit' }).click();
    await row.getByText('hash valid (recomputed here and by the server)').waitFor();

    await page.goto(`${daemon.url}/#/exports`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'SoA csv' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^soa-acme-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv).toContain('A.6.2.8');
    await page.getByText(`Downloaded ${download.suggestedFilename()}`).waitFor();

    await page.goto(`${daemon.url}/#/coverage`);
    const heatmap = page.getByTestId('heatmap');
    const cell = heatmap.getByRole('button', { name: /^iso-42001 to eu-ai-act: / });
    await cell.click();
    const coverage = await api<{ pairwise: { from: string; to: string; coverage: number }[] }>(
      'GET',
      `/cte/coverage?orgId=${ORG}`,
    );
    const pair = coverage.pairwise.find((p) => p.from === 'iso-42001' && p.to === 'eu-ai-act')!;
    await page
      .getByTestId('carry-over')
      .getByText(`iso-42001 → eu-ai-act: ${(pair.coverage * 100).toFixed(1)}%`)
      .waitFor();
    await readmeScreenshot(page, 'coverage.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("verifies an epoch's Merkle root in the browser", async () => {
    const epoch = await api<{ merkleRoot: string; count: number }>(
      'GET',
      `/orgs/${ORG}/attestations/epochs/${EPOCH}`,
    );
    expect(epoch.count).toBe(7);
    const { context, page, errors } = await signIn(readKey);
    await page.goto(`${daemon.url}/#/attestations/${EPOCH}`);
    await page.getByTestId('merkle-root').getByText(epoch.merkleRoot).waitFor();
    await page.getByRole('button', { name: 'Verify in the browser' }).click();
    const result = page.getByTestId('verification');
    await result.waitFor();
    expect(await result.textContent()).toBe(
      `Verified: the root recomputed from 7 records is ${epoch.merkleRoot}`,
    );
    await readmeScreenshot(page, 'attestations.png');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets a platform key choose the organization', async () => {
    const { context, page, errors } = await signIn(ADMIN_KEY);
    await page.getByRole('heading', { name: 'Overview · Acme AI' }).waitFor();
    await page.getByLabel('Organization').selectOption('beta');
    await page.getByRole('heading', { name: 'Overview · Beta Labs' }).waitFor();
    const beta = await api<{ score: number | null }>('GET', '/orgs/beta/compliance');
    await expect.poll(() => page.getByTestId('score').textContent()).toBe(scoreText(beta.score));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('returns to the sign-in form once the key is revoked', async () => {
    const created = await api<{ key: string; keyId: string }>('POST', `/orgs/${ORG}/keys`, {
      scopes: ['read'],
    });
    const { context, page } = await signIn(created.key);
    await api('DELETE', `/orgs/${ORG}/keys/${created.keyId}`).catch(() => undefined);
    expect(
      (await fetch(`${daemon.url}/api/v1/me`, { headers: { authorization: `Bearer ${created.key}` } }))
        .status,
    ).toBe(401);
    await page.getByRole('link', { name: 'Conflicts' }).click();
    await page.getByText('The API no longer accepts this key: sign in again.').waitFor();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await context.close();
  });

  it('shows a read key no edit controls', async () => {
    const { context, page, errors } = await signIn(readKey);
    await page.goto(`${daemon.url}/#/frameworks/iso-42001/A.6.2.8`);
    const panel = page.getByTestId('requirement-panel');
    await panel.getByText('What the crosswalk infers').waitFor();
    await panel.getByTestId('evidence-list').waitFor();
    expect(await page.getByRole('button', { name: /Save|Add evidence|Withdraw/ }).count()).toBe(0);
    await page.goto(`${daemon.url}/#/snapshots`);
    await page.getByTestId('snapshots').waitFor();
    expect(await page.getByRole('button', { name: 'Create snapshot' }).count()).toBe(0);
    await page.goto(`${daemon.url}/#/systems`);
    await page.getByTestId('systems').getByText('Support bot').waitFor();
    expect(await page.getByRole('button', { name: 'Add system' }).count()).toBe(0);
    await page.goto(`${daemon.url}/#/exports`);
    await page.getByText('This API key has no export scope').waitFor();
    // A phone-sized screen reads the same page.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${daemon.url}/#/overview`);
    await page.getByTestId('score').waitFor();
    await readmeScreenshot(page, 'overview-phone.png', false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
