import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

describe.each(dbKinds)('foundation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an org with every control', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orgs',
      body: { orgId: 'acme', name: 'Acme' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/api/v1/orgs/acme');
    expect(res.json().compliance.controlCount).toBe(38);
    const dup = await t.request({
      method: 'POST',
      url: '/api/v1/orgs',
      body: { orgId: 'acme', name: 'Acme' },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.code).toBe('CONFLICT');
  });

  it('searches the library', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/controls?search=logging' });
    expect(res.statusCode).toBe(200);
    expect(res.json().controls.length).toBeGreaterThan(0);
  });
});
