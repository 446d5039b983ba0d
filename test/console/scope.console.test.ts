import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';
import { layoutScreenshot, readmeScreenshot } from '../support/screenshots.js';

/**
 * The Scope page in a real browser (Debian's Chromium through playwright-core) against a real daemon on
 * PostgreSQL, on a desktop and a phone screen: the overview asks for the organization's EU AI Act scope until
 * it is given; the officer ticks its roles and answers three questions, previews what would be excluded and
 * why, saves, reviews each exclusion with its state and overrides one on its record; a change of roles says
 * what would apply again. An AI system's page reads its own attestations through the list's system filter.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const ORG = 'acme';
const SIZES = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;
type Size = keyof typeof SIZES;
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** More of the screener's attestations than one page of its list shows (20). */
const SCREENER_ATTESTATIONS = 23;

let daemon: Daemon;
let dropDatabase: () => Promise<void>;
let browser: Browser;
let writeKey: string;
let readKey: string;
let screenerId: string;

interface Exclusion {
  requirementId: string;
  state: string;
  reviewer: string | null;
}
interface ProfileView {
  profile: { euAiActRoles: string[]; updatedBy: string } | null;
  exclusions: Exclusion[];
  bindNoOne: { requirementId: string }[];
}

const api = <T = Record<string, unknown>>(method: string, url: string, body?: unknown, key = ADMIN_KEY) =>
  callApi<T>(daemon.url, key, method, url, body);

const record = (requirementId: string) =>
  api<{ applicable: boolean; reviewer: string | null; justification: string | null }>(
    'GET',
    `/orgs/${ORG}/frameworks/eu-ai-act/requirements/${encodeURIComponent(requirementId)}`,
  );
/** Polls until the page settles: loads end when they end, never after a fixed wait. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000 });

/** A fresh browser context of the given size, signed in with a key; page errors fail the test. */
async function signIn(
  size: Size,
  key = writeKey,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
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
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('score').waitFor();
  return { context, page, errors };
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

/** Nothing on the page is wider than the screen (a phone never scrolls sideways). */
const fitsTheScreen = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');

const row = (table: Locator, requirementId: string) =>
  table.locator(`tr[data-requirement="${requirementId}"]`);

beforeAll(async () => {
  const database = await createScratchDatabase();
  dropDatabase = database.drop;
  [daemon, browser] = await Promise.all([
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  writeKey = (await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read', 'write'] })).key;
  readKey = (await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, { scopes: ['read'] })).key;
  // A person judged Art. 12 before any profile: it applies to them.
  await api('PUT', `/orgs/${ORG}/frameworks/eu-ai-act/requirements/Art.%2012/applicability`, {
    applicable: true,
    justification: 'We also place a logging product on the market',
    reviewer: 'Dana Officer',
  });
  screenerId = (
    await api<{ systemId: string }>('POST', `/orgs/${ORG}/ai-systems`, {
      name: 'CV screener',
      owner: 'HR',
      purpose: 'Ranks applicants',
      riskLevel: 'high',
    })
  ).systemId;
  await api('POST', `/orgs/${ORG}/ai-systems`, {
    name: 'Support bot',
    owner: 'CX',
    purpose: 'First-line support',
    riskLevel: 'limited',
  });
  // The screener's attestations are the oldest; the support bot's is the newest of all.
  const at = (minute: number) =>
    new Date(Date.parse('2026-12-01T09:00:00.000Z') + minute * 60_000).toISOString();
  for (let i = 0; i < SCREENER_ATTESTATIONS; i += 1) {
    await api('POST', `/orgs/${ORG}/attestations`, {
      attestationId: `screener-${String(i).padStart(2, '0')}`,
      level: 'L0',
      epochId: '2026-12-01',
      systemId: 'CV screener',
      controlIds: ['A.6.2.6'],
      timestamp: at(i),
      claims: { drift: i / 100 },
    });
  }
  await api('POST', `/orgs/${ORG}/attestations`, {
    attestationId: 'bot-00',
    level: 'L0',
    epochId: '2026-12-01',
    systemId: 'Support bot',
    controlIds: ['A.6.2.6'],
    timestamp: at(100),
    claims: {},
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await dropDatabase?.();
});

describe('the scope of the organization under the EU AI Act, in the console', { timeout: 120_000 }, () => {
  for (const size of Object.keys(SIZES) as Size[]) {
    it(`asks on the overview for the organization's EU AI Act scope until it is given (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      const prompt = page.getByTestId('scope-prompt');
      const link = prompt.getByRole('link', {
        name: 'Tell comply what your organization is under the EU AI Act',
      });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe('#/scope');
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'scope-prompt', size);
      await link.click();
      await page.getByRole('heading', { name: 'Scope under the EU AI Act' }).waitFor();
      await page.getByTestId('profile-saved').getByText('No profile saved yet').waitFor();
      // Provisions that bind no organization, as a short note linking to their records.
      const note = page.getByTestId('bind-no-one');
      expect(await note.getByRole('link', { name: 'Art. 99', exact: true }).getAttribute('href')).toBe(
        `#/frameworks/eu-ai-act/${encodeURIComponent('Art. 99')}`,
      );
      expect(await fitsTheScreen(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await layoutScreenshot(page, 'scope-empty', size);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('previews, saves, lists each exclusion with its state, and is overridden on a record (desktop)', async () => {
    const { context, page, errors } = await signIn('desktop');
    await page.goto(`${daemon.url}/#/scope`);
    const form = page.getByRole('form', { name: 'What the organization is' });
    await form.getByRole('checkbox', { name: 'Deployer' }).check();
    // Each question explains itself in a line, and starts at no.
    const biometrics = form.getByRole('group', { name: 'Does it use or provide biometric systems?' });
    await biometrics.getByText('emotion recognition').waitFor();
    expect(await biometrics.getByRole('radio', { name: 'No' }).isChecked()).toBe(true);

    await form.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('profile-preview');
    const excluded = preview.getByTestId('preview-excluded');
    const art9 = excluded.locator('li[data-requirement="Art. 9"]');
    await art9
      .getByText('It binds providers, and the organization is a deployer', { exact: false })
      .waitFor();
    expect(await art9.getByRole('link', { name: 'Art. 9' }).getAttribute('href')).toBe(
      `#/frameworks/eu-ai-act/${encodeURIComponent('Art. 9')}`,
    );
    await preview
      .getByTestId('preview-kept')
      .getByText('applies, recorded by Dana Officer', { exact: false })
      .waitFor();
    const proposed = await api<ProfileView>('PUT', `/orgs/${ORG}/applicability-profile?dryRun=true`, {
      euAiActRoles: ['deployer'],
      generalPurposeModels: false,
      biometrics: false,
      lawEnforcement: false,
    });
    const willExclude = proposed.exclusions.filter((e) => e.state === 'proposed').length;
    await preview
      .getByRole('heading', { name: `Preview: saving would exclude ${willExclude} requirement(s)` })
      .waitFor();
    // A preview writes nothing.
    expect((await record('Art. 9')).applicable).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await layoutScreenshot(page, 'scope-preview', 'desktop');
    await page.evaluate('window.scrollTo(0, 0)');
    await readmeScreenshot(page, 'scope.png', false);

    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Profile saved: the exclusions below follow from it', { exact: true }).waitFor();
    const saved = await api<ProfileView>('GET', `/orgs/${ORG}/applicability-profile`);
    expect(saved.profile).toMatchObject({ euAiActRoles: ['deployer'] });
    expect(await record('Art. 9')).toMatchObject({ applicable: false, reviewer: 'applicability profile' });
    await page.getByTestId('profile-saved').getByText(`Saved by ${saved.profile?.updatedBy}`).waitFor();
    // The preview no longer holds once saved.
    await poll(() => preview.count()).toBe(0);

    const table = page.getByTestId('profile-exclusions');
    await poll(() => table.locator('tbody tr').count()).toBe(saved.exclusions.length);
    await page.getByRole('heading', { name: `Exclusions (${saved.exclusions.length})` }).waitFor();
    expect(await row(table, 'Art. 9').getByText('applied', { exact: true }).count()).toBe(1);
    expect(await row(table, 'Art. 12').getByText('overridden', { exact: true }).count()).toBe(1);
    expect(await row(table, 'Art. 12').getByText('Dana Officer').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.evaluate('window.scrollTo(0, 0)');
    await layoutScreenshot(page, 'scope', 'desktop');
    await row(table, 'Art. 9').scrollIntoViewIfNeeded();
    await layoutScreenshot(page, 'scope-exclusions', 'desktop');

    // Overriding one: its record opens, its applicability form starts empty (the profile decided nothing a
    // person has to answer for), and the officer says it applies.
    await row(table, 'Art. 9').getByRole('link', { name: 'Art. 9' }).click();
    const panel = page.getByTestId('requirement-panel');
    await poll(() => panel.locator('h2').first().textContent()).toBe('Art. 9');
    expect(await panel.getByRole('link', { name: 'the applicability profile' }).getAttribute('href')).toBe(
      '#/scope',
    );
    const justification = panel.getByLabel('Justification');
    expect(await justification.inputValue()).toBe('');
    await panel.getByLabel('Applies to the organization').selectOption('true');
    await justification.fill('We fine-tune and sell the screening model too');
    await panel.getByLabel('Reviewer (applicability)').fill('Rita Officer');
    await panel.getByRole('button', { name: 'Save applicability' }).click();
    await panel.getByText('Applicability saved').waitFor();
    expect(await record('Art. 9')).toMatchObject({ applicable: true, reviewer: 'Rita Officer' });
    await page.goBack();
    await poll(() => row(table, 'Art. 9').locator('td').first().textContent()).toBe('overridden');
    expect(await row(table, 'Art. 9').getByText('Rita Officer').count()).toBe(1);

    // The overview no longer asks.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Overview' }).click();
    await page.getByTestId('score').waitFor();
    await page.getByTestId('critical-gaps').or(page.getByText('No critical gap.')).first().waitFor();
    expect(await page.getByTestId('scope-prompt').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says what would apply again when the roles change, on a phone', async () => {
    const { context, page, errors } = await signIn('phone');
    await page.goto(`${daemon.url}/#/scope`);
    const form = page.getByRole('form', { name: 'What the organization is' });
    // The form starts from the saved profile.
    await poll(() => form.getByRole('checkbox', { name: 'Deployer' }).isChecked()).toBe(true);
    expect(await form.getByRole('checkbox', { name: 'Provider' }).isChecked()).toBe(false);
    await form.getByRole('checkbox', { name: 'Provider' }).check();
    await form.getByRole('button', { name: 'Preview' }).click();
    const again = page.getByTestId('preview-again');
    await again.locator('li[data-requirement="Art. 16"]').waitFor();
    // Art. 9 is a person's record now, not the profile's: it does not "apply again", it already does.
    expect(await again.locator('li[data-requirement="Art. 9"]').count()).toBe(0);
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await again.scrollIntoViewIfNeeded();
    await layoutScreenshot(page, 'scope-preview', 'phone');

    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Profile saved: the exclusions below follow from it', { exact: true }).waitFor();
    expect((await api<ProfileView>('GET', `/orgs/${ORG}/applicability-profile`)).profile).toMatchObject({
      euAiActRoles: ['provider', 'deployer'],
    });
    expect(await record('Art. 16')).toMatchObject({ applicable: true, reviewer: null });
    const table = page.getByTestId('profile-exclusions');
    await poll(() => row(table, 'Art. 16').count()).toBe(0);
    await row(table, 'Art. 23').waitFor();
    expect(await fitsTheScreen(page)).toBe(true);
    await row(table, 'Art. 23').scrollIntoViewIfNeeded();
    await layoutScreenshot(page, 'scope-exclusions', 'phone');
    await page.evaluate('window.scrollTo(0, 0)');
    await layoutScreenshot(page, 'scope', 'phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the profile to a key that may only read, without the means to change it', async () => {
    const { context, page, errors } = await signIn('desktop', readKey);
    await page.goto(`${daemon.url}/#/scope`);
    const form = page.getByRole('form', { name: 'What the organization is' });
    await form.getByText('Changing the profile needs the write permission.').waitFor();
    expect(await form.getByRole('checkbox', { name: 'Provider' }).isDisabled()).toBe(true);
    expect(await form.getByRole('button', { name: 'Save' }).count()).toBe(0);
    await page.getByTestId('profile-exclusions').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const size of Object.keys(SIZES) as Size[]) {
    it(`lists an AI system's own attestations, a page at a time, through the list's system filter (${size})`, async () => {
      const { context, page, errors } = await signIn(size);
      const asked = page.waitForRequest(
        (request) =>
          request.url().includes(`/orgs/${ORG}/attestations?`) &&
          new URL(request.url()).searchParams.get('systemId') === screenerId,
      );
      await page.goto(`${daemon.url}/#/systems/${screenerId}`);
      await asked;
      const list = page.getByTestId('system-attestations');
      // Newest first: the first page holds the 20 newest of the screener's, none of the support bot's.
      await list.getByText(`screener-${SCREENER_ATTESTATIONS - 1}`).waitFor();
      expect(await list.locator('tbody tr').count()).toBe(20);
      expect(await list.getByText('bot-00').count()).toBe(0);
      const pages = page.getByRole('navigation', { name: 'Attestation pages of the system' });
      await pages.getByRole('button', { name: 'Older' }).click();
      await list.getByText('screener-00').waitFor();
      expect(await list.locator('tbody tr').count()).toBe(SCREENER_ATTESTATIONS - 20);
      expect(await pages.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
      await pages.getByRole('button', { name: 'Newer' }).click();
      await list.getByText(`screener-${SCREENER_ATTESTATIONS - 1}`).waitFor();
      expect(await fitsTheScreen(page)).toBe(true);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
