import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

describe.each(dbKinds)('authentication and permissions on %s', (kind) => {
  let t: TestApp;
  let readKey: string;
  let writeKey: string;
  let attestKey: string;
  let otherOrgKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await t.createOrg('globex');
    readKey = await t.createKey('acme', ['read']);
    writeKey = await t.createKey('acme', ['read', 'write']);
    attestKey = await t.createKey('acme', ['attest']);
    otherOrgKey = await t.createKey('globex', ['read', 'write']);
  });
  afterAll(async () => {
    await t?.close();
  });

  const statusBody = { status: 'in_progress', reviewer: 'alice' };

  it.each([
    ['no header', null, undefined],
    ['an unknown key', 'cmp_not-a-real-key-at-all', undefined],
    ['a malformed header', null, { authorization: 'Basic abc' }],
    ['a bare token', null, { authorization: 'cmp_whatever12345' }],
  ])('answers 401 UNAUTHORIZED for %s', async (_name, key, headers) => {
    const res = await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key, headers });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });

  it('answers 403 FORBIDDEN for a key without the scope', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      body: statusBody,
      key: readKey,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', details: { requiredScope: 'write' } });
  });

  it("answers 403 FORBIDDEN for another org's key", async () => {
    const read = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/controls', key: otherOrgKey });
    expect(read.statusCode).toBe(403);
    const write = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      body: statusBody,
      key: otherOrgKey,
    });
    expect(write.statusCode).toBe(403);
  });

  it('lets an attest key do nothing but attest', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key: attestKey });
    expect(res.statusCode).toBe(403);
  });

  it.each([
    ['attest', ['attest']],
    ['export', ['export']],
    ['write', ['write']],
  ] as const)('tells a %s-only key who it is and what it may do', async (_name, scopes) => {
    const key = await t.createKey('acme', [...scopes]);
    const res = await t.request({ method: 'GET', url: '/api/v1/me', key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ orgId: 'acme', platform: false, scopes, can: { read: false } });
    // Describing itself gives it nothing else to read.
    const org = await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key });
    expect(org.statusCode).toBe(403);
  });

  it('still asks /me for a valid key', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/me', key: 'cmp_not-a-real-key-at-all' });
    expect(res.statusCode).toBe(401);
  });

  it('keeps admin routes for platform keys', async () => {
    const orgs = await t.request({
      method: 'POST',
      url: '/api/v1/orgs',
      body: { orgId: 'x', name: 'X' },
      key: writeKey,
    });
    expect(orgs.statusCode).toBe(403);
    const keys = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/keys', key: writeKey });
    expect(keys.statusCode).toBe(403);
  });

  it('lets a tenant key read and write its own org', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key: readKey })).statusCode).toBe(200);
    // HEAD is GET without the body: it needs the read scope only.
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/v1/orgs/acme/controls',
      headers: { authorization: `Bearer ${readKey}` },
    });
    expect(head.statusCode).toBe(200);
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.2.2/status',
      body: statusBody,
      key: writeKey,
    });
    expect(res.statusCode).toBe(200);
  });

  it('issues keys shown once, stored hashed, listed without secrets, and refused once revoked', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/keys?source=test',
      body: { scopes: ['read'], name: 'ci' },
    });
    expect(created.statusCode).toBe(201);
    const { keyId, key } = created.json();
    expect(key).toMatch(/^cmp_[A-Za-z0-9_-]{43}$/);
    expect(created.headers.location).toBe(`/api/v1/orgs/acme/keys/${keyId}`);
    const one = await t.request({ method: 'GET', url: created.headers.location as string });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      keyId,
      orgId: 'acme',
      name: 'ci',
      scopes: ['read'],
      // Issued with the platform key of COMPLY_ADMIN_KEY.
      createdBy: 'bootstrap',
      createdAt: created.json().createdAt,
      revokedAt: null,
    });

    const stored = await t.db
      .em()
      .execute<{ key_hash: string }[]>('select key_hash from api_keys where key_id = ?', [keyId]);
    expect(stored[0].key_hash).not.toContain(key);
    expect(stored[0].key_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/keys' });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).not.toContain(key);
    expect(list.json().keys.find((k: { keyId: string }) => k.keyId === keyId)).toMatchObject({
      name: 'ci',
      revokedAt: null,
    });

    expect((await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key })).statusCode).toBe(200);
    const revoked = await t.request({ method: 'DELETE', url: `/api/v1/orgs/acme/keys/${keyId}` });
    expect(revoked.statusCode).toBe(204);
    const after = await t.request({ method: 'GET', url: '/api/v1/orgs/acme', key });
    expect(after.statusCode).toBe(401);
    const shown = await t.request({ method: 'GET', url: `/api/v1/orgs/acme/keys/${keyId}` });
    expect(shown.json().revokedAt).not.toBeNull();
  });

  it('rejects the admin scope on tenant keys, unknown scopes and unknown keys', async () => {
    const admin = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/keys',
      body: { scopes: ['admin'] },
    });
    expect(admin.statusCode).toBe(400);
    expect(admin.json().error.details.fields[0].field).toBe('body.scopes');
    const unknown = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/keys',
      body: { scopes: ['root'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details.fields[0].field).toMatch(/^body\.scopes/);
    for (const method of ['GET', 'DELETE'] as const) {
      const missing = await t.request({ method, url: '/api/v1/orgs/acme/keys/key_nope' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'API key not found',
        details: { keyId: 'key_nope' },
      });
    }
    const tenant = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/keys/key_nope', key: writeKey });
    expect(tenant.statusCode).toBe(403);
  });

  it('serves health and the OpenAPI document without a key', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz', key: null })).statusCode).toBe(200);
    const ready = await t.request({ method: 'GET', url: '/readyz', key: null });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ database: 'ok' });
    const doc = await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    expect(Object.keys(doc.json().paths)).toEqual(
      expect.arrayContaining(['/api/v1/controls', '/api/v1/orgs/{orgId}/controls/{controlId}/applicability']),
    );
  });
});
