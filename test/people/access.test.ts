import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, dbKinds, openTestDatabase, type TestDatabase } from '../support/app.js';
import { addMember } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const PASSWORD = 'correct horse battery';

/**
 * Every role against every kind of route, the auditor's expiry and frameworks, cross-site changes, and the
 * approval rule. The app gets one route of its own that declares `person: true`, as approval routes do.
 */
describe.each(dbKinds)('who may do what (%s)', (kind) => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const cookies: Record<string, string> = {};
  let readKey: string;

  const send = (
    who: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: {
        ...(who.startsWith('key:')
          ? { authorization: `Bearer ${who.slice(4)}` }
          : { cookie: cookies[who], origin: ORIGIN }),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });

  beforeAll(async () => {
    database = await openTestDatabase(kind, {
      COMPLY_SIGN_IN_SLOW_AFTER: '1',
      COMPLY_SIGN_IN_FAILURES_MAX: '2',
    });
    app = await buildApp({
      config: database.config,
      db: database.db,
      jobs: new InProcessJobRunner(database.db, pino({ level: 'silent' })),
    });
    app.post(
      '/api/v1/orgs/:orgId/approval-probe',
      { config: { scope: 'approve', person: true } },
      async (request) => ({ approvedBy: request.principal?.actor.name }),
    );
    await app.ready();
    await createOrg(database.db.em(), { orgId: 'acme', name: 'Acme' });
    await createOrg(database.db.em(), { orgId: 'other', name: 'Other' });
    readKey = (await createKey(database.db.em(), { orgId: 'acme', scopes: ['read', 'write'] })).key;
    const t = {
      request: (options: { method: 'GET' | 'POST'; url: string; body?: unknown; key?: string | null }) =>
        app.inject({
          method: options.method,
          url: options.url,
          headers: options.key === null ? {} : { authorization: `Bearer ${ADMIN_KEY}` },
          ...(options.body === undefined ? {} : { payload: options.body as object }),
        }),
    } as unknown as Parameters<typeof addMember>[0];
    for (const role of ['viewer', 'editor', 'approver', 'owner', 'auditor']) {
      await addMember(t, 'acme', { email: `${role}@example.com`, name: `The ${role}`, role }, PASSWORD);
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: `${role}@example.com`, password: PASSWORD },
      });
      cookies[role] = String(login.headers['set-cookie']).split(';')[0];
    }
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const ROUTES: [string, (who: string) => ReturnType<typeof send>, string[]][] = [
    [
      'read',
      (who) => send(who, 'GET', '/api/v1/orgs/acme/controls'),
      ['viewer', 'editor', 'approver', 'owner', 'auditor'],
    ],
    [
      'write',
      (who) =>
        send(who, 'PUT', '/api/v1/orgs/acme/controls/A.2.2/status', { status: 'in_progress', reviewer: 'x' }),
      ['editor', 'approver', 'owner'],
    ],
    ['export', (who) => send(who, 'GET', '/api/v1/orgs/acme/export/soa?format=json'), ['owner', 'auditor']],
    ['manage', (who) => send(who, 'GET', '/api/v1/orgs/acme/members'), ['owner']],
    ['audit', (who) => send(who, 'GET', '/api/v1/orgs/acme/audit-log'), ['owner', 'auditor']],
    ['approve', (who) => send(who, 'POST', '/api/v1/orgs/acme/approval-probe', {}), ['approver', 'owner']],
    ['admin', (who) => send(who, 'POST', '/api/v1/orgs', { orgId: 'new-org', name: 'New' }), []],
  ];

  it.each(ROUTES)('lets exactly the roles allowed to %s do it', async (_permission, call, allowed) => {
    for (const role of ['viewer', 'editor', 'approver', 'owner', 'auditor']) {
      const response = await call(role);
      if (allowed.includes(role)) expect(response.statusCode, `${role}: ${response.body}`).toBeLessThan(300);
      else expect(response.statusCode, `${role}: ${response.body}`).toBe(403);
    }
  });

  it('answers a key asking for an approval with 403 person_required, even the platform key', async () => {
    for (const key of [readKey, ADMIN_KEY]) {
      const response = await send(`key:${key}`, 'POST', '/api/v1/orgs/acme/approval-probe', {});
      expect(response.statusCode).toBe(403);
      expect(response.json().error.details.reason).toBe('person_required');
    }
    expect((await send('approver', 'POST', '/api/v1/orgs/acme/approval-probe', {})).json()).toEqual({
      approvedBy: 'The approver',
    });
  });

  it('keeps a person to the orgs they belong to', async () => {
    const response = await send('owner', 'GET', '/api/v1/orgs/other/controls');
    expect(response.statusCode).toBe(403);
    expect(response.json().error.details.reason).toBe('not_a_member');
  });

  it('refuses a change made with the cookie from another origin, or with none (cross-site request forgery)', async () => {
    const change = { status: 'in_progress', reviewer: 'x' };
    const url = '/api/v1/orgs/acme/controls/A.2.3/status';
    expect((await send('editor', 'PUT', url, change, { origin: 'https://evil.example' })).statusCode).toBe(
      403,
    );
    const withoutOrigin = await app.inject({
      method: 'PUT',
      url,
      headers: { cookie: cookies.editor },
      payload: change,
    });
    expect(withoutOrigin.statusCode).toBe(403);
    expect(withoutOrigin.json().error.details.reason).toBe('cross_site_request');
    // Reads need no origin; keys need none either.
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/v1/orgs/acme/controls',
          headers: { cookie: cookies.editor },
        })
      ).statusCode,
    ).toBe(200);
    expect((await send(`key:${readKey}`, 'PUT', url, change)).statusCode).toBe(200);
  });

  it('bounds an auditor to the listed frameworks, then to the expiry', async () => {
    const userId = (await send(`key:${ADMIN_KEY}`, 'GET', '/api/v1/orgs/acme/members'))
      .json()
      .members.find((member: { role: string }) => member.role === 'auditor').userId;
    const scoped = await send(`key:${ADMIN_KEY}`, 'PUT', `/api/v1/orgs/acme/members/${userId}`, {
      frameworkIds: ['iso-42001'],
      expiresAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    expect(scoped.statusCode, scoped.body).toBe(200);
    expect((await send('auditor', 'GET', '/api/v1/orgs/acme/controls')).statusCode).toBe(200);
    expect(
      (await send('auditor', 'GET', '/api/v1/orgs/acme/frameworks/iso-42001/requirements')).statusCode,
    ).toBe(200);
    const other = await send('auditor', 'GET', '/api/v1/orgs/acme/frameworks/eu-ai-act/requirements');
    expect(other.statusCode).toBe(403);
    expect(other.json().error.details).toMatchObject({
      reason: 'framework_out_of_scope',
      frameworkId: 'eu-ai-act',
    });
    const unknown = await send(`key:${ADMIN_KEY}`, 'PUT', `/api/v1/orgs/acme/members/${userId}`, {
      frameworkIds: ['nope'],
    });
    expect(unknown.statusCode).toBe(400);

    await send(`key:${ADMIN_KEY}`, 'PUT', `/api/v1/orgs/acme/members/${userId}`, {
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    const expired = await send('auditor', 'GET', '/api/v1/orgs/acme/controls');
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error.details.reason).toBe('access_expired');
  });

  it('refuses expiry and frameworks on other roles, and keeps the last owner', async () => {
    const bad = await send(`key:${ADMIN_KEY}`, 'POST', '/api/v1/orgs/acme/members', {
      email: 'x@example.com',
      name: 'X',
      role: 'editor',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(bad.statusCode).toBe(400);
    const members = (await send(`key:${ADMIN_KEY}`, 'GET', '/api/v1/orgs/acme/members')).json().members;
    const owner = members.find((member: { role: string }) => member.role === 'owner');
    for (const [method, body] of [
      ['PUT', { role: 'viewer' }],
      ['PUT', { status: 'disabled' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await send(
        `key:${ADMIN_KEY}`,
        method,
        `/api/v1/orgs/acme/members/${owner.userId}`,
        body,
      );
      expect(response.statusCode, response.body).toBe(409);
    }
    const again = await send(`key:${ADMIN_KEY}`, 'POST', '/api/v1/orgs/acme/members', {
      email: 'OWNER@example.com',
      name: 'Y',
      role: 'viewer',
    });
    expect(again.statusCode).toBe(409);
  });

  it('signs in without telling whether the email exists, slows repeated failures, then refuses them', async () => {
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'nobody@example.com', password: 'wrong password!' },
    });
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'viewer@example.com', password: 'wrong password!' },
    });
    expect([unknown.statusCode, wrong.statusCode]).toEqual([401, 401]);
    expect(unknown.json().error.message).toBe(wrong.json().error.message);
    const started = Date.now();
    const slowed = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'viewer@example.com', password: 'wrong again!!' },
    });
    expect(slowed.statusCode).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'viewer@example.com', password: PASSWORD },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const failures = (
      await send(`key:${ADMIN_KEY}`, 'GET', '/api/v1/audit-log?action=auth.sign_in_failed')
    ).json().events;
    expect(failures.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(failures)).not.toContain('wrong');
  });

  it('ends a session on sign-out, at once', async () => {
    const login = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'editor@example.com', password: PASSWORD },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).statusCode).toBe(
      200,
    );
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie } })).statusCode,
    ).toBe(204);
    expect((await app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });

  it('refuses a used invitation link with 400', async () => {
    const invited = await send(`key:${ADMIN_KEY}`, 'POST', '/api/v1/orgs/acme/members', {
      email: 'once@example.com',
      name: 'Once',
      role: 'viewer',
    });
    const { token } = invited.json().invitation;
    expect(invited.json().invitation.url).toContain(`/#/accept/${token}`);
    const accept = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/auth/invitations/accept',
        payload: { token, password: PASSWORD },
      });
    expect((await accept()).statusCode).toBe(200);
    expect((await accept()).statusCode).toBe(400);
    const short = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/accept',
      payload: { token, password: 'short' },
    });
    expect(short.statusCode).toBe(400);
  });
});
