import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { attestation, type Body, newSidecarKey, signed } from './helpers.js';

const ORG = 'system-filter-org';
const URL = `/api/v1/orgs/${ORG}/attestations`;
const base = Date.UTC(2026, 10, 3);
const sidecar = newSidecarKey('sf-sidecar');

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const newestFirst = (a: Body, b: Body) =>
  byteOrder(b.timestamp as string, a.timestamp as string) ||
  byteOrder(b.attestationId as string, a.attestationId as string);
const ids = (bodies: { attestationId?: unknown }[]) => bodies.map((body) => body.attestationId);

/**
 * `GET /attestations?systemId=…`: one AI system's attestations, newest first, paged by the same keyset as the
 * whole list, combined with the other filters, and never answered from the cached newest page of another filter.
 */
describe.each(dbKinds)('attestations of one AI system on %s', (kind) => {
  let t: TestApp;
  let screener: string;
  let chatbot: string;
  let bodies: Body[];
  const list = async (query: string) => {
    const res = await t.request({ method: 'GET', url: `${URL}?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const addSystem = async (name: string) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/ai-systems`,
      body: { name, owner: 'ml', purpose: 'test', riskLevel: 'high' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().systemId as string;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    screener = await addSystem('Screener');
    chatbot = await addSystem('Chatbot');
    const key = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    expect(key.statusCode).toBe(201);
    // 30 attestations: every third about the screener (by name on some), every third about the chatbot, the
    // rest about no system; the screener's are the oldest, so the newest page of the whole list misses them.
    bodies = Array.from({ length: 30 }, (_, index) => {
      const about = index % 3 === 0 ? 'screener' : index % 3 === 1 ? 'chatbot' : 'none';
      const body = attestation({
        attestationId: `sf-${String(index).padStart(2, '0')}`,
        level: index % 2 === 0 ? 'L0' : 'L2',
        epochId: index < 15 ? 'e-1' : 'e-2',
        ...(about === 'screener' ? { systemId: index % 2 === 0 ? screener : 'screener' } : {}),
        ...(about === 'chatbot' ? { systemId: chatbot } : {}),
        timestamp: new Date(base + (about === 'screener' ? index : 1000 + index) * 60_000).toISOString(),
      });
      return body.level === 'L2' ? signed(body, sidecar) : body;
    });
    for (const body of bodies) {
      const res = await t.request({ method: 'POST', url: URL, body });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const about = (systemId: string) => (body: Body) =>
    body.systemId === systemId || (systemId === screener && body.systemId === 'screener');

  it("lists only the system's attestations, newest first, with its total", async () => {
    // The newest page of every attestation first, so that a cached page could answer the filtered request.
    const newest = await list('limit=5');
    expect(newest.attestations.some((a: { systemId: string | null }) => a.systemId === screener)).toBe(false);
    for (const systemId of [screener, chatbot]) {
      const page = await list(`systemId=${systemId}&limit=5`);
      const expected = bodies.filter(about(systemId)).sort(newestFirst);
      expect(ids(page.attestations)).toEqual(ids(expected.slice(0, 5)));
      expect(page.attestations.every((a: { systemId: string }) => a.systemId === systemId)).toBe(true);
      expect((await list(`systemId=${systemId}&limit=5&includeTotal=true`)).total).toBe(expected.length);
    }
    expect((await list('systemId=no-such-system')).attestations).toEqual([]);
  });

  it('pages through one system by cursor, each attestation once', async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(`systemId=${screener}&limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...ids(page.attestations));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ids(bodies.filter(about(screener)).sort(newestFirst)));
  });

  it('combines with the epoch, level and time filters', async () => {
    const from = new Date(base + 10 * 60_000).toISOString();
    const page = await list(`systemId=${screener}&epochId=e-2&level=L2&from=${from}&includeTotal=true`);
    const expected = bodies
      .filter(about(screener))
      .filter((body) => body.epochId === 'e-2' && body.level === 'L2' && (body.timestamp as string) >= from)
      .sort(newestFirst);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(page.attestations)).toEqual(ids(expected));
    expect(page.total).toBe(expected.length);
  });

  it('answers 400 for a systemId that is no text', async () => {
    for (const query of ['systemId=', `systemId=${'x'.repeat(201)}`, 'systemId=%00']) {
      const res = await t.request({ method: 'GET', url: `${URL}?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.details.fields[0].field).toBe('querystring.systemId');
    }
  });

  it('documents the filter in the OpenAPI document', async () => {
    const { paths } = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    const parameters = paths['/api/v1/orgs/{orgId}/attestations'].get.parameters as { name: string }[];
    expect(parameters.map((parameter) => parameter.name)).toContain('systemId');
  });
});
