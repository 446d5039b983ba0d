import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { attestation, type Body, contentHash, merkleTreeHash, newSidecarKey, signed } from './helpers.js';

const ORG = 'query-org';
const URL = `/api/v1/orgs/${ORG}/attestations`;
const base = Date.UTC(2026, 10, 1);

/** 40 attestations over two epochs and both levels, some sharing a timestamp (ties break by id). */
function corpus(): Body[] {
  const key = { keyId: 'q-sidecar', privateKey: sidecar.privateKey };
  return Array.from({ length: 40 }, (_, index) => {
    const body = attestation({
      attestationId: `q-${String((index * 7) % 40).padStart(2, '0')}`,
      level: index % 3 === 0 ? 'L0' : 'L2',
      epochId: index < 25 ? 'e-a' : 'e-b',
      timestamp: new Date(base + Math.floor(index / 2) * 60_000).toISOString(),
      claims: { index },
    });
    return body.level === 'L2' ? signed(body, key) : body;
  });
}
const sidecar = newSidecarKey('q-sidecar');

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const newestFirst = (a: Body, b: Body) =>
  byteOrder(b.timestamp as string, a.timestamp as string) ||
  byteOrder(b.attestationId as string, a.attestationId as string);
const ids = (bodies: Body[]) => bodies.map((body) => body.attestationId);
const cursorOf = (timestamp: string, attestationId: string) =>
  Buffer.from(JSON.stringify([timestamp, attestationId])).toString('base64url');

describe.each(dbKinds)('attestation reading on %s', (kind) => {
  let t: TestApp;
  let bodies: Body[];
  const list = async (query: string) => {
    const res = await t.request({ method: 'GET', url: `${URL}?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: sidecar.publicPem, keyId: 'q-sidecar' },
    });
    bodies = corpus();
    const responses = await Promise.all(bodies.map((body) => t.request({ method: 'POST', url: URL, body })));
    expect(responses.map((res) => res.statusCode)).toEqual(bodies.map(() => 201));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists newest first with the default limit', async () => {
    const page = await list('');
    expect(page.limit).toBe(50);
    expect(page.offset).toBe(0);
    expect(page.nextCursor).toBeNull();
    expect(page.total).toBeUndefined();
    expect(ids(page.attestations)).toEqual(ids([...bodies].sort(newestFirst)));
    expect(page.attestations[0].contentHash).toBe(contentHash([...bodies].sort(newestFirst)[0]));
  });

  it('filters by level, epoch and an inclusive time range, alone and together', async () => {
    const from = new Date(base + 5 * 60_000).toISOString();
    const to = new Date(base + 14 * 60_000).toISOString();
    const cases: [string, (body: Body) => boolean][] = [
      ['level=L0', (body) => body.level === 'L0'],
      ['level=L2', (body) => body.level === 'L2'],
      ['epochId=e-b', (body) => body.epochId === 'e-b'],
      [`from=${from}`, (body) => (body.timestamp as string) >= from],
      [`to=${to}`, (body) => (body.timestamp as string) <= to],
      [
        `level=L2&epochId=e-a&from=${from}&to=${to}`,
        (body) =>
          body.level === 'L2' &&
          body.epochId === 'e-a' &&
          (body.timestamp as string) >= from &&
          (body.timestamp as string) <= to,
      ],
    ];
    for (const [query, keep] of cases) {
      const page = await list(`${query}&includeTotal=true`);
      const expected = bodies.filter(keep).sort(newestFirst);
      expect(expected.length, query).toBeGreaterThan(0);
      expect(ids(page.attestations), query).toEqual(ids(expected));
      expect(page.total, query).toBe(expected.length);
    }
    expect((await list('epochId=no-such-epoch')).attestations).toEqual([]);
  });

  it('pages through everything by cursor, each row once, in order', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`limit=7&level=L2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.attestations.length).toBeLessThanOrEqual(7);
      seen.push(...ids(page.attestations).map(String));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    const expected = ids(bodies.filter((body) => body.level === 'L2').sort(newestFirst));
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 7));
  });

  it('pages by offset too', async () => {
    const all = ids([...bodies].sort(newestFirst));
    const page = await list('limit=10&offset=15');
    expect(page.offset).toBe(15);
    expect(ids(page.attestations)).toEqual(all.slice(15, 25));
    expect((await list('limit=10&offset=35')).attestations).toHaveLength(5);
  });

  it.each([
    'limit=0',
    'limit=1001',
    'limit=abc',
    'offset=-1',
    'level=L1',
    'from=yesterday',
    'from=2026-11-10T00:00:00.000Z&to=2026-11-01T00:00:00.000Z',
    'cursor=not-a-cursor',
    'cursor=WyJ4Il0&offset=3',
    `cursor=${cursorOf('2026-11-01T00:00:00.000Z', 'q-\u0000')}`,
    `cursor=${cursorOf('-100000-01-01T00:00:00.000Z', 'q-01')}`,
    `cursor=${cursorOf('0000-01-01T00:00:00.000Z', 'q-01')}`,
    'from=0000-01-01T00:00:00Z',
  ])('answers 400 for %s', async (query) => {
    const res = await t.request({ method: 'GET', url: `${URL}?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details.fields[0].field).toMatch(/^querystring\./);
  });

  it('accepts the largest limit', async () => {
    expect((await list('limit=1000')).attestations).toHaveLength(40);
  });

  it('documents its routes in the OpenAPI document', async () => {
    const { paths } = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    const ingest = paths['/api/v1/orgs/{orgId}/attestations'].post;
    expect(Object.keys(ingest.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '409', '503']),
    );
    expect(ingest.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['level', 'epochId', 'controlIds', 'timestamp', 'claims']),
    );
    const listParameters = paths['/api/v1/orgs/{orgId}/attestations'].get.parameters;
    expect(listParameters.filter((parameter: { in: string }) => parameter.in === 'query')).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'limit', required: false })]),
    );
    for (const path of [
      '/api/v1/orgs/{orgId}/attestations/{attestationId}',
      '/api/v1/orgs/{orgId}/attestations/epochs/{epochId}',
      '/api/v1/orgs/{orgId}/sidecar-keys',
      '/api/v1/orgs/{orgId}/sidecar-keys/{keyId}',
    ]) {
      expect(paths[path], path).toBeDefined();
    }
  });

  it('summarizes an epoch with a Merkle root an auditor can recompute', async () => {
    for (const epochId of ['e-a', 'e-b']) {
      const res = await t.request({ method: 'GET', url: `${URL}/epochs/${epochId}` });
      expect(res.statusCode).toBe(200);
      const members = bodies.filter((body) => body.epochId === epochId).sort((a, b) => -newestFirst(a, b));
      const leaves = members.map((body) => Buffer.from(contentHash(body), 'hex'));
      expect(res.json()).toMatchObject({
        orgId: ORG,
        epochId,
        count: members.length,
        levels: {
          L0: members.filter((body) => body.level === 'L0').length,
          L2: members.filter((body) => body.level === 'L2').length,
        },
        firstTimestamp: members[0].timestamp,
        lastTimestamp: members.at(-1)?.timestamp,
        merkleRoot: merkleTreeHash(leaves).toString('hex'),
      });
    }
    const missing = await t.request({ method: 'GET', url: `${URL}/epochs/no-such-epoch` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Epoch not found' });
  });

  it('changes the root when an attestation joins the epoch', async () => {
    const before = (await t.request({ method: 'GET', url: `${URL}/epochs/e-b` })).json();
    const late = attestation({
      level: 'L0',
      epochId: 'e-b',
      attestationId: 'q-late',
      timestamp: new Date(base).toISOString(),
    });
    expect((await t.request({ method: 'POST', url: URL, body: late })).statusCode).toBe(201);
    const after = (await t.request({ method: 'GET', url: `${URL}/epochs/e-b` })).json();
    expect(after.count).toBe(before.count + 1);
    expect(after.firstTimestamp).toBe(late.timestamp);
    expect(after.merkleRoot).not.toBe(before.merkleRoot);
    const members = [...bodies.filter((body) => body.epochId === 'e-b'), late].sort(
      (a, b) => -newestFirst(a, b),
    );
    expect(after.merkleRoot).toBe(
      merkleTreeHash(members.map((body) => Buffer.from(contentHash(body), 'hex'))).toString('hex'),
    );
    bodies.push(late);
  });
});
