import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

describe.each(dbKinds)('controls on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('returns the whole Annex A library: 38 controls in 9 domains', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/controls' });
    expect(res.statusCode).toBe(200);
    const { controls, total } = res.json();
    expect(total).toBe(38);
    expect(new Set(controls.map((c: { domain: string }) => c.domain)).size).toBe(9);
    expect(controls[0]).toMatchObject({ controlId: 'A.2.2', domain: 'A.2' });
  });

  it('filters by domain', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/controls?domain=A.6' });
    const ids = res.json().controls.map((c: { controlId: string }) => c.controlId);
    expect(ids).toHaveLength(9);
    expect(ids.every((id: string) => id.startsWith('A.6.'))).toBe(true);
  });

  it('ranks full-text matches, best first', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/controls?search=event%20logs' });
    const { controls } = res.json();
    expect(controls[0].controlId).toBe('A.6.2.8');
    const ranks = controls.map((c: { rank: number }) => c.rank);
    expect([...ranks].sort((a, b) => b - a)).toEqual(ranks);
    const byId = await t.request({ method: 'GET', url: '/api/v1/controls?search=A.7.4' });
    expect(byId.json().controls.map((c: { controlId: string }) => c.controlId)).toContain('A.7.4');
    const none = await t.request({ method: 'GET', url: '/api/v1/controls?search=zzqxv' });
    expect(none.json()).toEqual({ controls: [], total: 0 });
  });

  it('shows one control, or 404 RESOURCE_NOT_FOUND', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/controls/A.5.2' })).json().title).toBeTruthy();
    const res = await t.request({ method: 'GET', url: '/api/v1/controls/A.99' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Control not found', details: { controlId: 'A.99' } },
    });
  });

  it('changes status and applicability, filters by them, and logs every change', async () => {
    const status = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.6.2.8/status',
      body: { status: 'implemented', reviewer: 'alice', note: 'logging on in prod' },
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ controlId: 'A.6.2.8', status: 'implemented', reviewer: 'alice' });

    const excluded = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.10.4/applicability',
      body: { applicable: false, justification: 'We have no customers of AI services', reviewer: 'bob' },
    });
    expect(excluded.statusCode).toBe(200);
    expect(excluded.json()).toMatchObject({
      applicable: false,
      justification: 'We have no customers of AI services',
    });

    const implemented = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/controls?status=implemented',
    });
    expect(implemented.json().controls.map((c: { controlId: string }) => c.controlId)).toEqual(['A.6.2.8']);
    const notApplicable = await t.request({
      method: 'GET',
      url: '/api/v1/orgs/acme/controls?applicable=false',
    });
    expect(notApplicable.json().controls.map((c: { controlId: string }) => c.controlId)).toEqual(['A.10.4']);
    const all = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/controls' });
    expect(all.json().controls).toHaveLength(38);

    const log = await t.db
      .em()
      .execute<{ control_id: string; field: string; from_value: string; to_value: string; actor: string }[]>(
        'select requirement_id as control_id, field, from_value, to_value, actor from requirement_changes where org_id = ? order by id',
        ['acme'],
      );
    expect(log).toEqual([
      {
        control_id: 'A.6.2.8',
        field: 'status',
        from_value: 'not_started',
        to_value: 'implemented',
        actor: 'alice',
      },
      { control_id: 'A.10.4', field: 'applicable', from_value: 'true', to_value: 'false', actor: 'bob' },
    ]);
    const org = await t.request({ method: 'GET', url: '/api/v1/orgs/acme' });
    expect(org.json().compliance).toMatchObject({ score: 2.7, counts: { implemented: 1, notApplicable: 1 } });
  });

  it('requires a justification and a reviewer to change applicability', async () => {
    for (const body of [
      { applicable: false, reviewer: 'bob' },
      { applicable: false, justification: '', reviewer: 'bob' },
      { applicable: false, justification: 'x' },
      { applicable: 'false', justification: 'x', reviewer: 'bob' },
    ]) {
      const res = await t.request({
        method: 'PUT',
        url: '/api/v1/orgs/acme/controls/A.2.2/applicability',
        body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.details.fields.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ['/api/v1/orgs/acme/controls?status=done', 'querystring.status'],
    ['/api/v1/orgs/acme/controls?applicable=maybe', 'querystring.applicable'],
    ['/api/v1/controls?domain=A.99', 'querystring.domain'],
    ['/api/v1/orgs/acme/controls?domain=A.99', 'querystring.domain'],
    ['/api/v1/controls?domain=nonsense', 'querystring.domain'],
    [`/api/v1/controls?search=${'a'.repeat(201)}`, 'querystring.search'],
  ])('answers 400 for the bad query %s', async (url, field) => {
    const res = await t.request({ method: 'GET', url });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details.fields[0].field).toBe(field);
  });

  it('distinguishes unknown orgs, unknown controls and unknown routes', async () => {
    const org = await t.request({ method: 'GET', url: '/api/v1/orgs/nope/controls' });
    expect(org.statusCode).toBe(404);
    expect(org.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Organization not found',
      details: { orgId: 'nope' },
    });
    const control = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.99/status',
      body: { status: 'implemented', reviewer: 'a' },
    });
    expect(control.statusCode).toBe(404);
    expect(control.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Control not found',
      details: { controlId: 'A.99' },
    });
    const route = await t.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(route.statusCode).toBe(404);
    expect(route.json().error.code).toBe('NOT_FOUND');
  });

  it('answers 400, never 500, to malformed bodies', async () => {
    const url = '/api/v1/orgs/acme/controls/A.2.2/status';
    const json = { 'content-type': 'application/json' };
    const cases = [
      { body: '{"status": ', headers: json },
      { body: '', headers: json },
      { body: 'status=implemented', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { body: JSON.stringify({ status: 'implemented', reviewer: 'a', extra: 1 }), headers: json },
      { body: JSON.stringify({ status: 'implemented', reviewer: 'x'.repeat(2_000_000) }), headers: json },
      { body: '[1,2]', headers: json },
    ];
    for (const { body, headers } of cases) {
      const res = await t.request({ method: 'PUT', url, body, headers });
      expect(res.statusCode, body.slice(0, 40)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    }
  });
});

describe('internal errors', () => {
  it('masks the cause and returns the request id', async () => {
    const t = await createTestApp('pglite');
    await t.db.close();
    const res = await t.request({ method: 'GET', url: '/api/v1/controls/A.2.2' });
    expect(res.statusCode).toBe(500);
    const { error } = res.json();
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.message).toBe('Internal server error');
    expect(error.details.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(error)).not.toMatch(/select|controls|at .*\.ts/i);
    await t.app.close();
  });
});
