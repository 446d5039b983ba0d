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

  it('builds the Location of a new org from its path, never from the query string', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/orgs?source=test',
      body: { orgId: 'initech', name: 'Initech' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe('/api/v1/orgs/initech');
  });

  it.each([
    ['a missing name', { orgId: 'o1' }, 'body.name'],
    ['an orgId breaking the pattern', { orgId: '-o1', name: 'O' }, 'body.orgId'],
    ['an extra member', { orgId: 'o1', name: 'O', plan: 'gold' }, 'body.plan'],
    ['a name of the wrong type', { orgId: 'o1', name: 42 }, 'body.name'],
  ])('answers 400 to a new org with %s', async (_case, body, field) => {
    const res = await t.request({ method: 'POST', url: '/api/v1/orgs', body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details.fields[0].field).toBe(field);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown org', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/orgs/no-such-org' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: {
        code: 'RESOURCE_NOT_FOUND',
        message: 'Organization not found',
        details: { orgId: 'no-such-org' },
      },
    });
  });

  it('documents 503 with the error envelope where a dependency can time out', async () => {
    const { paths } = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    for (const [path, method] of [
      ['/api/v1/orgs/{orgId}/attestations', 'post'],
      ['/api/v1/orgs/{orgId}/export/oscal', 'get'],
      ['/api/v1/orgs/{orgId}/export/soa', 'get'],
    ]) {
      const schema = paths[path][method].responses['503']?.content['application/json'].schema;
      expect(schema?.properties.error.required, path).toEqual(['code', 'message', 'details']);
    }
  });

  it('compiles every route schema, which it otherwise does on a route’s first request', () => {
    // The tests above compiled the few routes they called; the API has hundreds more.
    expect(t.app.compileSchemas()).toBeGreaterThan(500);
    expect(t.app.compileSchemas()).toBe(0);
  });

  it('searches the library', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/controls?search=logging' });
    expect(res.statusCode).toBe(200);
    expect(res.json().controls.length).toBeGreaterThan(0);
  });
});
