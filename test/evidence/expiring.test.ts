import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

/** GET /orgs/{orgId}/evidence/expiring: what to renew next, across every framework, paged. */
describe.each(dbKinds)('expiring evidence on %s', (kind) => {
  let t: TestApp;
  const day = 86_400_000;
  const now = Date.now();
  const at = (days: number) => new Date(now + days * day).toISOString();

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await t.createOrg('other');
    const add = (url: string, title: string, expiresAt?: string) =>
      t.request({
        method: 'POST',
        url,
        body: { type: 'link', title, fileUrl: 'https://example.com/x', ...(expiresAt ? { expiresAt } : {}) },
      });
    for (const [title, days] of [
      ['in 20 days', 20],
      ['in 2 days', 2],
      ['in 45 days', 45],
      ['10 days ago', -10],
    ] as const) {
      expect((await add('/api/v1/orgs/acme/controls/A.2.2/evidence', title, at(days))).statusCode).toBe(201);
    }
    expect((await add('/api/v1/orgs/acme/controls/A.2.2/evidence', 'never')).statusCode).toBe(201);
    const art = encodeURIComponent('Art. 12');
    expect(
      (await add(`/api/v1/orgs/acme/frameworks/eu-ai-act/requirements/${art}/evidence`, 'log policy', at(10)))
        .statusCode,
    ).toBe(201);
    expect((await add('/api/v1/orgs/other/controls/A.2.2/evidence', 'other org', at(5))).statusCode).toBe(
      201,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (query = '', key?: string) =>
    t.request({ method: 'GET', url: `/api/v1/orgs/acme/evidence/expiring${query}`, key });

  it('lists the next 30 days by default, soonest first, across frameworks, with the total', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.evidence.map((e: { title: string }) => e.title)).toEqual([
      'in 2 days',
      'log policy',
      'in 20 days',
    ]);
    expect(body.evidence[1]).toMatchObject({
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 12',
      expired: false,
    });
    expect(body).toMatchObject({ orgId: 'acme', total: 3, limit: 50, offset: 0 });
  });

  it('takes a window and pages it; expired items say so', async () => {
    const all = (await list(`?from=${encodeURIComponent(at(-30))}&to=${encodeURIComponent(at(60))}`)).json();
    expect(all.total).toBe(5);
    expect(all.evidence[0]).toMatchObject({ title: '10 days ago', expired: true });
    const page = (
      await list(`?from=${encodeURIComponent(at(-30))}&to=${encodeURIComponent(at(60))}&limit=2&offset=2`)
    ).json();
    expect(page.evidence.map((e: { title: string }) => e.title)).toEqual(['log policy', 'in 20 days']);
    expect(page.total).toBe(5);
  });

  it('refuses a reversed window, another org’s key and a key without read', async () => {
    expect((await list('?from=2026-02-01&to=2026-01-01')).statusCode).toBe(400);
    const otherKey = await t.createKey('other', ['read']);
    expect((await list('', otherKey)).statusCode).toBe(403);
    const attestKey = await t.createKey('acme', ['attest']);
    expect((await list('', attestKey)).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/orgs/nobody/evidence/expiring' })).statusCode,
    ).toBe(404);
  });
});
