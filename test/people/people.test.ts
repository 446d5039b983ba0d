import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';

describe.each(dbKinds)('people and the audit trail (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
  });
  afterAll(() => t.close());

  it('invites, signs in, writes with a session, and the trail names the person and verifies', async () => {
    await addMember(t, 'acme', { email: 'Olivia@example.com', name: 'Olivia Officer', role: 'owner' });
    const cookie = await signIn(t, 'olivia@example.com', 'correct horse battery');
    const me = await t.request({ method: 'GET', url: '/api/v1/me', key: null, headers: { cookie } });
    expect(me.json()).toMatchObject({
      type: 'user',
      name: 'Olivia Officer',
      orgs: [{ orgId: 'acme', role: 'owner' }],
    });

    const write = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      key: null,
      headers: { cookie, origin: ORIGIN },
      body: { status: 'implemented', reviewer: 'someone else' },
    });
    expect(write.statusCode, write.body).toBe(200);
    expect(write.json().reviewer).toBe('Olivia Officer');

    const foreign = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      key: null,
      headers: { cookie, origin: 'https://evil.example' },
      body: { status: 'in_progress', reviewer: 'x' },
    });
    expect(foreign.statusCode).toBe(403);

    const log = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/audit-log',
      key: null,
      headers: { cookie },
    });
    expect(log.statusCode, log.body).toBe(200);
    const [latest] = log.json().events;
    expect(latest).toMatchObject({
      action: 'requirement.updated',
      actor: { type: 'user', name: 'Olivia Officer' },
      resource: { type: 'requirement', id: 'iso-42001/A.2.2' },
      changes: { status: { from: 'not_started', to: 'implemented' } },
    });
    const verify = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/audit-log/verify',
      key: null,
      headers: { cookie },
    });
    expect(verify.json()).toMatchObject({ valid: true });
  });
});
