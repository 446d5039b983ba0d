import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';
import { freePort } from '../support/free-port.js';
import { startOidcProvider } from '../support/oidc-provider.js';
import { readmeScreenshot } from '../support/screenshots.js';

/**
 * People in the web console, in a real browser (Debian's Chromium through playwright-core) against a real
 * daemon on PostgreSQL: a member accepts an invitation and signs in with a password, changes a record under
 * their own name, invites someone, and reads and verifies the audit trail; the invited auditor accepts the
 * link in the browser and sees only what an auditor may.
 */

const CHROMIUM = process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const ORG = 'acme';
const OWNER = { email: 'olivia@example.com', name: 'Olivia Owner', password: 'correct horse battery staple' };
const AUDITOR = {
  email: 'arne@audit.example',
  name: 'Arne Auditor',
  password: 'an auditor’s long passphrase',
};

let daemon: Daemon;
let databaseUrl: string;
let dropDatabase: () => Promise<void>;
let browser: Browser;

const api = <T = Record<string, unknown>>(method: string, url: string, body?: unknown, key = ADMIN_KEY) =>
  callApi<T>(daemon.url, key, method, url, body);

/** Invites a member with the platform key and accepts the invitation over the API, as the test's set-up. */
async function createMember(member: { email: string; name: string; password: string }, role: string) {
  const created = await api<{ userId: string; invitation: { token: string } }>(
    'POST',
    `/orgs/${ORG}/members`,
    {
      email: member.email,
      name: member.name,
      role,
    },
  );
  const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: created.invitation.token, password: member.password }),
  });
  expect(accepted.status).toBe(200);
  return created.userId;
}

/** A fresh browser context (its own cookies and storage); page errors fail the test. */
async function openConsole(hash = ''): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A refused sign-in is an answer the page shows, not a failure of the page.
    if (message.type() === 'error' && !/status of 40[13]/.test(message.text())) errors.push(message.text());
  });
  await page.goto(`${daemon.url}/${hash}`);
  return { context, page, errors };
}

/** Signs in through the email and password form, up to the overview's score. */
async function signInWithPassword(page: Page, member: { email: string; password: string }) {
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('score').waitFor();
}

/**
 * Signs in through "Sign in with SSO": the console sends the browser to the OpenID provider, `atProvider`
 * completes the provider's own pages (login, consent), and the provider sends it back to the console with a
 * session cookie. Used once the daemon runs with COMPLY_OIDC_* against the in-suite provider.
 */
async function signInWithSso(page: Page, atProvider: (page: Page) => Promise<void>) {
  await page.getByRole('link', { name: 'Sign in with SSO' }).click();
  await atProvider(page);
  await page.getByTestId('score').waitFor();
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
  databaseUrl = database.url;
  [daemon, browser] = await Promise.all([
    startDaemon({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
  ]);
  await api('POST', '/orgs', { orgId: ORG, name: 'Acme AI' });
  await createMember(OWNER, 'owner');
  // Changes by a key, so that the trail holds more than one page (50 events) and two kinds of actor.
  const { key } = await api<{ key: string }>('POST', `/orgs/${ORG}/keys`, {
    scopes: ['read', 'write'],
    name: 'ci pipeline',
  });
  for (let i = 0; i < 60; i += 1) {
    await api(
      'PUT',
      `/orgs/${ORG}/controls/A.5.${2 + (i % 4)}/status`,
      { status: Math.floor(i / 4) % 2 ? 'implemented' : 'in_progress', reviewer: 'pipeline' },
      key,
    );
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await dropDatabase?.();
});

describe('people in the web console', { timeout: 90_000 }, () => {
  it('refuses a wrong password without saying whether the email exists', async () => {
    const { context, page, errors } = await openConsole();
    await page.getByLabel('Email').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'sign-in.png', false);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = await page.getByRole('alert').textContent();
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(refusal);
    expect(await context.cookies()).toEqual([]);
    // No SSO configured: no SSO button; the key form is one click away.
    expect(await page.getByRole('link', { name: 'Sign in with SSO' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Use an API key' }).click();
    await page.getByLabel('API key').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('signs in with a password, changes a record under the person’s name, signs out', async () => {
    const { context, page, errors } = await openConsole();
    await signInWithPassword(page, OWNER);
    await page.getByText(`${OWNER.name} · owner`).waitFor();
    // The session is an HttpOnly, SameSite=Strict cookie; nothing of it is in the page's storage.
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([
      ['comply_session', true, 'Strict'],
    ]);
    expect(await page.evaluate(() => sessionStorage.getItem('comply.key'))).toBeNull();
    // A reload keeps the person signed in (the cookie), and a cookie-authenticated change passes the API's
    // Origin check: the browser sends the page's own origin.
    await page.reload();
    await page.getByTestId('score').waitFor();
    await page.goto(`${daemon.url}/#/frameworks/iso-42001/A.6.2.8`);
    const panel = page.getByTestId('requirement-panel');
    await panel.getByText('Set status').waitFor();
    expect(await panel.getByLabel('Reviewer', { exact: true }).inputValue()).toBe(OWNER.name);
    await panel.getByLabel('New status').selectOption('implemented');
    await panel.getByRole('button', { name: 'Save status' }).click();
    await panel.getByText('Status saved').waitFor();
    const record = await api<{ status: string; reviewer: string }>('GET', `/orgs/${ORG}/controls/A.6.2.8`);
    expect(record).toMatchObject({ status: 'implemented', reviewer: OWNER.name });
    await panel.locator('dd', { hasText: OWNER.name }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const session = cookies[0].value;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email').waitFor();
    // The session is gone server-side.
    const after = await fetch(`${daemon.url}/api/v1/me`, {
      headers: { cookie: `comply_session=${session}` },
    });
    expect(after.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('invites an auditor, who accepts the link in the browser and sees only an auditor’s pages', async () => {
    const owner = await openConsole();
    await signInWithPassword(owner.page, OWNER);
    await owner.page.getByRole('link', { name: 'Members' }).click();
    const members = owner.page.getByTestId('members');
    await members.locator(`tr[data-member="${OWNER.email}"]`).getByText('active').waitFor();

    await owner.page.getByLabel('Email').fill(AUDITOR.email);
    await owner.page.getByLabel('Name').fill(AUDITOR.name);
    await owner.page.getByLabel('Role', { exact: true }).selectOption('auditor');
    const until = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    await owner.page.getByLabel('Access until').fill(until);
    await owner.page.getByRole('checkbox', { name: 'ISO/IEC 42001:2023', exact: true }).check();
    await owner.page.getByRole('button', { name: 'Invite', exact: true }).click();
    const invitation = owner.page.getByTestId('invitation');
    await invitation.waitFor();
    const link = await invitation.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(/#\/accept[/?]/);
    await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: daemon.url });
    await invitation.getByRole('button', { name: 'Copy link' }).click();
    await invitation.getByText('Link copied').waitFor();
    expect(
      await owner.page.evaluate(() =>
        (navigator as unknown as { clipboard: { readText(): Promise<string> } }).clipboard.readText(),
      ),
    ).toBe(link);
    const row = members.locator(`tr[data-member="${AUDITOR.email}"]`);
    await row.getByText('invited').waitFor();
    await row.getByText(`until ${until} · ISO/IEC 42001:2023`).waitFor();
    const listed = await api<{
      members: { email: string; role: string; expiresAt: string; frameworkIds: string[] }[];
    }>('GET', `/orgs/${ORG}/members`);
    expect(listed.members.find((m) => m.email === AUDITOR.email)).toMatchObject({
      role: 'auditor',
      frameworkIds: ['iso-42001'],
    });
    expect(await axeViolations(owner.page)).toEqual([]);
    await readmeScreenshot(owner.page, 'members.png');

    // The invited person opens the link (on this daemon's origin), chooses a password and is in.
    const auditor = await openConsole(new URL(link).hash);
    await auditor.page.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await auditor.page.getByLabel('Password', { exact: true }).fill(AUDITOR.password);
    await auditor.page.getByLabel('Password again').fill('a different passphrase');
    await auditor.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await auditor.page.getByText('The two passwords differ.').waitFor();
    await auditor.page.getByLabel('Password again').fill(AUDITOR.password);
    await auditor.page.getByRole('button', { name: 'Set password and sign in' }).click();
    await auditor.page.getByTestId('score').waitFor();
    // The token has left the address bar.
    expect(auditor.page.url()).toBe(`${daemon.url}/#/overview`);
    await auditor.page.getByText(`${AUDITOR.name} · auditor`).waitFor();
    await auditor.page.getByRole('link', { name: 'Audit trail' }).waitFor();
    expect(await auditor.page.getByRole('link', { name: 'Members' }).count()).toBe(0);
    // Disabling the auditor ends their session at once: their next request sends them to the sign-in form.
    await row.getByRole('button', { name: `Edit ${AUDITOR.name}` }).click();
    const panel = owner.page.getByTestId('member-panel');
    await panel.getByRole('button', { name: `Disable ${AUDITOR.name}` }).click();
    await panel.getByText('Member disabled').waitFor();
    await row.getByText('disabled').waitFor();
    await auditor.page.getByRole('link', { name: 'Coverage' }).click();
    await auditor.page.getByText('Your session has ended: sign in again.').waitFor();
    await auditor.page.getByLabel('Email').waitFor();

    expect(owner.errors).toEqual([]);
    await auditor.context.close();
    await owner.context.close();
  });

  it('changes a role and removes a member; the last owner stays', async () => {
    const { context, page, errors } = await openConsole();
    await signInWithPassword(page, OWNER);
    await page.goto(`${daemon.url}/#/members`);
    const members = page.getByTestId('members');
    await members.locator(`tr[data-member="${AUDITOR.email}"]`).waitFor();
    await members.getByRole('button', { name: `Edit ${AUDITOR.name}` }).click();
    const panel = page.getByTestId('member-panel');
    await panel.getByLabel('Role', { exact: true }).selectOption('viewer');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByText('Member saved').waitFor();
    await members.locator(`tr[data-member="${AUDITOR.email}"]`).getByText('viewer').waitFor();
    await panel.getByRole('button', { name: `Remove ${AUDITOR.name}` }).click();
    await panel.getByRole('button', { name: `Yes, remove ${AUDITOR.name}` }).click();
    await page.getByText(`${AUDITOR.name} removed`).waitFor();
    await expect.poll(() => members.locator(`tr[data-member="${AUDITOR.email}"]`).count()).toBe(0);

    // The only owner cannot demote themselves: the API's refusal is shown.
    await members.getByRole('button', { name: `Edit ${OWNER.name}` }).click();
    await panel.getByLabel('Role', { exact: true }).selectOption('editor');
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await panel.getByRole('alert').waitFor();
    const listed = await api<{ members: { email: string; role: string }[] }>('GET', `/orgs/${ORG}/members`);
    expect(listed.members).toEqual([expect.objectContaining({ email: OWNER.email, role: 'owner' })]);
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
    await context.close();
  });

  it('shows the audit trail newest first, verifies the chain, loads more and filters it', async () => {
    const { context, page, errors } = await openConsole();
    await signInWithPassword(page, OWNER);
    await page.getByRole('link', { name: 'Audit trail' }).click();
    const table = page.getByTestId('audit-events');
    await table.waitFor();
    const log = await api<{
      events: { seq: number; actor: { id: string; name: string }; action: string }[];
      nextCursor: string | null;
    }>('GET', `/orgs/${ORG}/audit-log`, undefined);
    expect(log.nextCursor).not.toBeNull();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(log.events.length);
    // Newest first, as the API gives them.
    expect(await rows.first().getAttribute('data-seq')).toBe(String(log.events[0].seq));
    await table.getByText(OWNER.name).first().waitFor();
    await table.getByText('ci pipeline').first().waitFor();
    await table.getByText('in_progress → implemented').first().waitFor();

    await page.getByRole('button', { name: 'Verify chain' }).click();
    const verification = await api<{ valid: boolean; headHash: string; events: number }>(
      'GET',
      `/orgs/${ORG}/audit-log/verify`,
    );
    expect(verification.valid).toBe(true);
    await page
      .getByTestId('audit-verification')
      .getByText(`Chain valid: ${verification.events} events, head hash ${verification.headHash}`)
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await readmeScreenshot(page, 'audit-trail.png', false);

    // Older pages follow by cursor.
    const total = verification.events;
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(Math.min(total, 100));
    expect(await rows.last().getAttribute('data-seq')).toBe(String(Math.max(1, total - 99)));

    // The person's own changes of one kind.
    const ownerEvent = log.events.find((e) => e.actor.name === OWNER.name)!;
    await page.getByLabel('Actor').fill(ownerEvent.actor.id);
    await page.getByLabel('Action').fill(ownerEvent.action);
    await page.getByRole('button', { name: 'Apply' }).click();
    const filtered = await api<{ events: { actor: { id: string } }[] }>(
      'GET',
      `/orgs/${ORG}/audit-log?actorId=${ownerEvent.actor.id}&action=${encodeURIComponent(ownerEvent.action)}`,
    );
    expect(filtered.events.length).toBeGreaterThan(0);
    expect(filtered.events.length).toBeLessThan(log.events.length);
    await expect.poll(() => rows.count()).toBe(filtered.events.length);
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => rows.count()).toBe(log.events.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a platform key the platform log of sign-ins', async () => {
    const { context, page, errors } = await openConsole();
    await page.getByRole('button', { name: 'Use an API key' }).click();
    await page.getByLabel('API key').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('score').waitFor();
    await page.getByRole('link', { name: 'Audit trail' }).click();
    await page.getByTestId('audit-events').waitFor();
    await page.getByRole('radio', { name: 'platform (sign-ins)' }).check();
    await page.getByRole('heading', { name: 'Audit trail · the platform' }).waitFor();
    const table = page.getByTestId('audit-events');
    const log = await api<{ orgId: null; events: { action: string; actor: { name: string } }[] }>(
      'GET',
      '/audit-log',
    );
    expect(log.orgId).toBeNull();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(log.events.length);
    await table.locator('tr[data-action="auth.signed_in"]').getByText(OWNER.name).first().waitFor();
    await table.locator('tr[data-action="auth.sign_in_failed"]').first().waitFor();
    await page.getByRole('button', { name: 'Verify chain' }).click();
    await page.getByTestId('audit-verification').getByText('Chain valid:').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates the first person from the set-up link a fresh daemon prints', async () => {
    // `npm start` on an empty embedded database, without COMPLY_ADMIN_KEY: the key and the link are printed.
    const fresh = await startDaemon({ COMPLY_ADMIN_KEY: '', LOG_LEVEL: 'warn' });
    try {
      await expect.poll(() => fresh.output(), { timeout: 10_000 }).toMatch(/#\/accept\/\S+/);
      const link = /(http\S+#\/accept\/\S+)/.exec(fresh.output())![1];
      expect(new URL(link).origin).toBe(fresh.url);
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(link);
      await page.getByRole('heading', { name: 'Set up comply' }).waitFor();
      await page.getByLabel('Your name').fill('Pat Admin');
      await page.getByLabel('Your email').fill('pat@example.com');
      await page.getByLabel('Password', { exact: true }).fill('the first administrator');
      await page.getByLabel('Password again').fill('the first administrator');
      await page.getByRole('button', { name: 'Create and sign in' }).click();
      await page.getByText('Pat Admin · platform administrator').waitFor();
      await page.getByText('No organization exists yet').waitFor();
      expect(page.url()).toBe(`${fresh.url}/#/overview`);
      const config = await (await fetch(`${fresh.url}/api/v1/auth/config`)).json();
      expect(config).toEqual({ sso: false, setupPending: false });
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await fresh.stop();
    }
  });

  it('signs in with SSO in Chromium against the in-suite OpenID provider', async () => {
    // A second daemon on the same database, with single sign-on against a real provider run by the test.
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const provider = await startOidcProvider(`${publicUrl}/api/v1/auth/oidc/callback`, {
      olivia: { email: OWNER.email, email_verified: true },
    });
    const sso = await startDaemon({
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      COMPLY_PUBLIC_URL: publicUrl,
      COMPLY_OIDC_ISSUER: provider.issuer,
      COMPLY_OIDC_CLIENT_ID: provider.clientId,
      COMPLY_OIDC_CLIENT_SECRET: provider.clientSecret,
    });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${publicUrl}/`);
      await signInWithSso(page, async () => {
        await page.locator('input[name="login"]').fill('olivia');
        await page.locator('input[name="password"]').fill('any');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();
      });
      await page.getByText(OWNER.name).first().waitFor();
      const session = (await context.cookies()).find((cookie) => cookie.name === 'comply_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      await context.close();
    } finally {
      await sso.stop();
      await provider.close();
    }
  });
});
