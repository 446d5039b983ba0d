import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const base = '/api/v1/orgs/acme/ai-systems';
const chatbot = {
  name: 'Support chatbot',
  description: 'Answers customer questions',
  owner: 'cx-team',
  purpose: 'First-line customer support',
  riskLevel: 'limited',
  lifecycleStage: 'deployed',
};

describe.each(dbKinds)('AI systems on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await t.createOrg('other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (body: unknown, url = base) => t.request({ method: 'POST', url, body });

  it('registers a system and shows it', async () => {
    const res = await create(chatbot);
    expect(res.statusCode).toBe(201);
    const system = res.json();
    expect(system).toMatchObject(chatbot);
    expect(system.createdAt).toBe(system.updatedAt);
    expect(res.headers.location).toBe(`${base}/${system.systemId}`);
    const shown = await t.request({ method: 'GET', url: res.headers.location as string });
    expect(shown.json()).toEqual(system);
  });

  it('defaults the lifecycle stage to design and the description to null', async () => {
    const res = await create({
      name: 'Credit scoring',
      owner: 'risk',
      purpose: 'Loan decisions',
      riskLevel: 'high',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ lifecycleStage: 'design', description: null });
  });

  it('refuses a name already used in the org, whatever its case, with 409', async () => {
    const res = await create({ ...chatbot, name: 'SUPPORT CHATBOT' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: 'CONFLICT', details: { name: 'SUPPORT CHATBOT' } });
    expect((await create(chatbot, '/api/v1/orgs/other/ai-systems')).statusCode).toBe(201);
  });

  it('lists by name and filters by risk level and stage', async () => {
    const all = await t.request({ method: 'GET', url: base });
    expect(all.statusCode).toBe(200);
    expect(all.json().systems.map((s: { name: string }) => s.name)).toEqual([
      'Credit scoring',
      'Support chatbot',
    ]);
    const high = await t.request({ method: 'GET', url: `${base}?riskLevel=high` });
    expect(high.json().systems.map((s: { name: string }) => s.name)).toEqual(['Credit scoring']);
    const deployed = await t.request({
      method: 'GET',
      url: `${base}?lifecycleStage=deployed&riskLevel=high`,
    });
    expect(deployed.json().systems).toEqual([]);
    expect((await t.request({ method: 'GET', url: `${base}?riskLevel=extreme` })).statusCode).toBe(400);
  });

  it('updates only the fields given', async () => {
    const system = (await create({ ...chatbot, name: 'Triage model' })).json();
    const res = await t.request({
      method: 'PUT',
      url: `${base}/${system.systemId}`,
      body: { riskLevel: 'high', description: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ...chatbot,
      name: 'Triage model',
      riskLevel: 'high',
      description: null,
      systemId: system.systemId,
      createdAt: system.createdAt,
    });
    expect(Date.parse(res.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(system.updatedAt));
    const renamed = await t.request({
      method: 'PUT',
      url: `${base}/${system.systemId}`,
      body: { name: 'support chatbot' },
    });
    expect(renamed.statusCode).toBe(409);
  });

  it.each([
    ['POST without a name', 'POST', { owner: 'x', purpose: 'y', riskLevel: 'minimal' }, 'body.name'],
    [
      'POST with an unknown risk level',
      'POST',
      { ...chatbot, name: 'n', riskLevel: 'severe' },
      'body.riskLevel',
    ],
    [
      'POST with an unknown stage',
      'POST',
      { ...chatbot, name: 'n', lifecycleStage: 'beta' },
      'body.lifecycleStage',
    ],
    ['POST with an unknown member', 'POST', { ...chatbot, name: 'n', vendor: 'x' }, 'body.vendor'],
    ['POST with an empty owner', 'POST', { ...chatbot, name: 'n', owner: '' }, 'body.owner'],
    ['PUT with an empty body', 'PUT', {}, 'body'],
    ['PUT with a wrong type', 'PUT', { name: 3 }, 'body.name'],
    ['PUT with a null name', 'PUT', { name: null }, 'body.name'],
  ])('rejects %s with 400', async (_case, method, body, field) => {
    const system = (await t.request({ method: 'GET', url: base })).json().systems[0];
    const url = method === 'POST' ? base : `${base}/${system.systemId}`;
    const res = await t.request({ method: method as 'POST' | 'PUT', url, body });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details.fields[0].field).toBe(field);
  });

  it('deletes with 204, then answers 404 on any access', async () => {
    const system = (await create({ ...chatbot, name: 'Retired model' })).json();
    const url = `${base}/${system.systemId}`;
    const deleted = await t.request({ method: 'DELETE', url });
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.request({ method, url, body: method === 'PUT' ? { owner: 'x' } : undefined });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'AI system not found',
        details: { systemId: system.systemId },
      });
    }
    // The name is free again.
    expect((await create({ ...chatbot, name: 'Retired model' })).statusCode).toBe(201);
  });

  it('keeps organizations apart and enforces scopes', async () => {
    const mine = (await t.request({ method: 'GET', url: base })).json().systems[0];
    const viaOther = await t.request({
      method: 'GET',
      url: `/api/v1/orgs/other/ai-systems/${mine.systemId}`,
    });
    expect(viaOther.statusCode).toBe(404);
    const otherKey = await t.createKey('other', ['read', 'write']);
    expect((await t.request({ method: 'GET', url: base, key: otherKey })).statusCode).toBe(403);
    const reader = await t.createKey('acme', ['read']);
    expect((await t.request({ method: 'GET', url: base, key: reader })).statusCode).toBe(200);
    const write = await t.request({
      method: 'POST',
      url: base,
      body: { ...chatbot, name: 'r' },
      key: reader,
    });
    expect(write.statusCode).toBe(403);
    const remove = await t.request({ method: 'DELETE', url: `${base}/${mine.systemId}`, key: reader });
    expect(remove.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/orgs/nope/ai-systems' })).statusCode).toBe(404);
  });
});
