import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import {
  CookieJar,
  signInAtProvider,
  startOidcProvider,
  type TestOidcProvider,
} from '../support/oidc-provider.js';

const PUBLIC_URL = 'http://comply.test';
const REDIRECT_URI = `${PUBLIC_URL}/api/v1/auth/oidc/callback`;

describe.each(dbKinds)('single sign-on with OpenID Connect against a real provider (%s)', (kind) => {
  let provider: TestOidcProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider(REDIRECT_URI, {
      olivia: { email: 'olivia@example.com', email_verified: true },
      mallory: { email: 'mallory@example.com', email_verified: true },
      unverified: { email: 'ivan@example.com', email_verified: false },
    });
    t = await createTestApp(kind, {
      env: {
        COMPLY_PUBLIC_URL: PUBLIC_URL,
        COMPLY_OIDC_ISSUER: provider.issuer,
        COMPLY_OIDC_CLIENT_ID: provider.clientId,
        COMPLY_OIDC_CLIENT_SECRET: provider.clientSecret,
      },
    });
    await t.createOrg('acme');
    for (const [email, name] of [
      ['olivia@example.com', 'Olivia Officer'],
      ['ivan@example.com', 'Ivan Unverified'],
    ]) {
      const invited = await t.request({
        method: 'POST',
        url: '/api/v1/orgs/acme/members',
        body: { email, name, role: 'editor' },
      });
      expect(invited.statusCode, invited.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** The daemon's side of a sign-in: start, the provider, then the callback with the browser's cookies. */
  async function signInBySso(login: string) {
    const jar = new CookieJar();
    const start = await t.request({ method: 'GET', url: '/api/v1/auth/oidc/start', key: null });
    expect(start.statusCode, start.body).toBe(302);
    jar.take(start.headers as Record<string, string | string[]>);
    const authorization = new URL(start.headers.location as string);
    expect(authorization.origin).toBe(provider.issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('state')).toBeTruthy();
    expect(authorization.searchParams.get('nonce')).toBeTruthy();
    expect(authorization.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    const back = await signInAtProvider(authorization.toString(), login);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    const callback = await t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      key: null,
      headers: { cookie: jar.header() },
    });
    jar.take(callback.headers as Record<string, string | string[]>);
    return { callback, jar };
  }

  it('discovers the provider, redirects with PKCE, and signs in the invited member whose verified email matches', async () => {
    const { callback, jar } = await signInBySso('olivia');
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/');
    expect(String(callback.headers['set-cookie'])).toMatch(/comply_session=[^;]+; .*HttpOnly/);
    const me = await t.request({
      method: 'GET',
      url: '/api/v1/me',
      key: null,
      headers: { cookie: jar.header() },
    });
    expect(me.json()).toMatchObject({
      type: 'user',
      email: 'olivia@example.com',
      orgs: [{ orgId: 'acme', role: 'editor' }],
    });
    const members = (await t.request({ method: 'GET', url: '/api/v1/orgs/acme/members' })).json().members;
    expect(members.find((member: { email: string }) => member.email === 'olivia@example.com').status).toBe(
      'active',
    );
    const signIns = (
      await t.request({ method: 'GET', url: '/api/v1/audit-log?action=auth.signed_in' })
    ).json();
    expect(signIns.events[0]).toMatchObject({
      actor: { type: 'user', name: 'Olivia Officer' },
      changes: { method: { to: 'sso' } },
    });
  });

  it('refuses a verified email that is no member with 403, and an unverified one too', async () => {
    const stranger = await signInBySso('mallory');
    expect(stranger.callback.statusCode).toBe(403);
    expect(stranger.callback.json().error.details.reason).toBe('not_a_member');
    expect(String(stranger.callback.headers['set-cookie'] ?? '')).not.toMatch(/comply_session=[A-Za-z0-9]/);
    const unverified = await signInBySso('unverified');
    expect(unverified.callback.statusCode).toBe(403);
    expect(unverified.callback.json().error.details.reason).toBe('email_not_verified');
  });

  it('refuses a callback whose state does not match the sign-in this browser started', async () => {
    const first = await t.request({ method: 'GET', url: '/api/v1/auth/oidc/start', key: null });
    const other = new CookieJar();
    other.take(
      (await t.request({ method: 'GET', url: '/api/v1/auth/oidc/start', key: null })).headers as Record<
        string,
        string
      >,
    );
    const back = await signInAtProvider(first.headers.location as string, 'olivia');
    const callback = await t.request({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      key: null,
      headers: { cookie: other.header() },
    });
    expect(callback.statusCode).toBe(403);
    expect(callback.json().error.details.reason).toBe('sso_failed');
  });

  it('says in /auth/config that single sign-on is offered', async () => {
    const config = await t.request({ method: 'GET', url: '/api/v1/auth/config', key: null });
    expect(config.json()).toMatchObject({ sso: true });
  });
});
