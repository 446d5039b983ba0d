/**
 * Framework requirement lists, framework scores, first evidence pages and the newest attestation pages are
 * kept serialized per org. Each
 * must still show at once a write through the API, a new library revision (an imported catalog, an
 * analyst's crosswalk edge) and evidence expiring with no write at all.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAttestation } from '../../src/clients/sidecar/client.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { oscalCatalog } from '../support/oscal-catalog.js';

const CATALOG = 'cached-vendor-controls';
const vendorCatalog = oscalCatalog('0b7f4c2e-3d6a-4e1b-9c8d-7a5e3f1b2c40', 'Vendor Logs', {
  groups: [
    {
      id: 'op',
      title: 'Operations',
      controls: [
        {
          id: 'log-1',
          title: 'Event logs of AI systems',
          prose: 'Keep event logs of every AI system in operation.',
        },
      ],
    },
  ],
});

interface Entry {
  requirementId: string;
  status: string;
  assessment: string;
  evidenceCount: number;
  evidenceExpired: boolean;
}

describe.each(dbKinds)('cached requirement reads on %s', { timeout: 120_000 }, (kind) => {
  let t: TestApp;
  const org = `${kind}-cached-reads`;
  const base = `/api/v1/orgs/${org}`;
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const send = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const res = await t.request({ method, url, body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.body === '' ? undefined : res.json();
  };
  const entry = async (frameworkId: string, requirementId: string, query = ''): Promise<Entry | undefined> =>
    (await get(`${base}/frameworks/${frameworkId}/requirements${query}`)).requirements.find(
      (row: Entry) => row.requirementId === requirementId,
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(org);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it('shows a status written through the API in the list, the filtered list and the score', async () => {
    const article = 'Art. 9';
    const listUrl = `${base}/frameworks/eu-ai-act/requirements`;
    const scoreUrl = `${base}/frameworks/eu-ai-act/compliance`;
    const before = { list: await get(listUrl), score: await get(scoreUrl) };
    expect(await get(listUrl)).toEqual(before.list);
    expect((await get(`${listUrl}?status=implemented&assessment=direct`)).requirements).toEqual([]);

    await send('PUT', `${listUrl}/${encodeURIComponent(article)}/status`, {
      status: 'implemented',
      reviewer: 'rita',
    });
    expect(await entry('eu-ai-act', article)).toMatchObject({ status: 'implemented', assessment: 'direct' });
    expect(
      (await get(`${listUrl}?status=implemented&assessment=direct`)).requirements.map(
        (row: Entry) => row.requirementId,
      ),
    ).toEqual([article]);
    const score = await get(scoreUrl);
    expect(score.counts.implemented).toBe(before.score.counts.implemented + 1);
  });

  it('follows the library: an imported catalog, then an analyst edge added and removed', async () => {
    await send('PUT', `${base}/controls/A.6.2.8/status`, { status: 'implemented', reviewer: 'rita' });
    expect(
      (await t.request({ method: 'GET', url: `${base}/frameworks/${CATALOG}/requirements` })).statusCode,
    ).toBe(404);
    await send('POST', `/api/v1/cte/frameworks/import?frameworkId=${CATALOG}`, vendorCatalog);
    const unmapped = await entry(CATALOG, 'log-1');
    expect(unmapped).toMatchObject({ assessment: 'none' });
    const unmappedScore = await get(`${base}/frameworks/${CATALOG}/compliance`);

    const edge = await send('POST', '/api/v1/cte/mappings', {
      sourceFrameworkId: CATALOG,
      sourceId: 'log-1',
      targetFrameworkId: 'iso-42001',
      targetId: 'A.6.2.8',
      relationship: 'equal',
      rationale: 'Both ask for event logs of an AI system in operation.',
    });
    expect(await entry(CATALOG, 'log-1')).toMatchObject({ assessment: 'inferred', status: 'implemented' });
    expect(await get(`${base}/frameworks/${CATALOG}/compliance`)).not.toEqual(unmappedScore);

    await send('DELETE', `/api/v1/cte/mappings/${edge.edgeId}`);
    expect(await entry(CATALOG, 'log-1')).toEqual(unmapped);
  });

  it('shows new evidence on both evidence routes of a control, each with its own members', async () => {
    const controlPage = `${base}/controls/A.5.2/evidence`;
    const requirementPage = `${base}/frameworks/iso-42001/requirements/A.5.2/evidence`;
    expect((await get(controlPage)).total).toBe(0);
    expect((await get(requirementPage)).total).toBe(0);
    await send('POST', controlPage, { type: 'link', title: 'Policy', fileUrl: 'https://docs.example.com/p' });
    const viaControl = await get(controlPage);
    const viaRequirement = await get(requirementPage);
    expect(viaControl.total).toBe(1);
    expect(viaControl.frameworkId).toBeUndefined();
    expect(viaRequirement).toMatchObject({ total: 1, frameworkId: 'iso-42001', requirementId: 'A.5.2' });
    expect(viaRequirement.evidence[0]).toMatchObject({ frameworkId: 'iso-42001', title: 'Policy' });
    expect((await get(`${controlPage}?limit=1`)).evidence).toHaveLength(1);
  });

  it('shows a new attestation on the newest page of attestations, filtered or not', async () => {
    const attestKey = await t.createKey(org, ['attest']);
    const pages = [
      `${base}/attestations`,
      `${base}/attestations?epochId=cached-1`,
      `${base}/attestations?level=L0&limit=5&includeTotal=true`,
    ];
    for (const page of pages) expect((await get(page)).attestations).toEqual([]);
    const attestation = buildAttestation({ level: 'L0', epochId: 'cached-1', controlIds: ['A.6.2.6'] });
    const posted = await t.request({
      method: 'POST',
      url: `${base}/attestations`,
      body: attestation,
      key: attestKey,
    });
    expect(posted.statusCode).toBe(201);
    for (const page of pages) {
      expect(
        (await get(page)).attestations.map((row: { attestationId: string }) => row.attestationId),
      ).toEqual([attestation.attestationId]);
    }
    expect((await get(pages[2])).total).toBe(1);
  });

  it('shows evidence expiring with no write: the evidence pages and the requirement list', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00Z'));
    const requirement = 'Art. 12';
    const path = `${base}/frameworks/eu-ai-act/requirements/${encodeURIComponent(requirement)}`;
    await send('PUT', `${path}/status`, { status: 'implemented', reviewer: 'rita' });
    await send('POST', `${path}/evidence`, {
      type: 'link',
      title: 'Log retention',
      fileUrl: 'https://docs.example.com/logs',
      expiresAt: '2026-06-02T00:00:00Z',
    });
    await send('POST', `${base}/controls/A.6.2.5/evidence`, {
      type: 'link',
      title: 'Monitoring',
      fileUrl: 'https://docs.example.com/monitoring',
      expiresAt: '2026-06-02T00:00:00Z',
    });
    const pages = [`${path}/evidence`, `${base}/controls/A.6.2.5/evidence`];
    for (const page of pages) expect((await get(page)).evidence[0].expired).toBe(false);
    expect(await entry('eu-ai-act', requirement)).toMatchObject({ evidenceCount: 1, evidenceExpired: false });
    // Read again from the cache: the same.
    expect(await entry('eu-ai-act', requirement)).toMatchObject({ evidenceExpired: false });

    vi.setSystemTime(new Date('2026-06-02T00:00:01Z'));
    for (const page of pages) expect((await get(page)).evidence[0].expired).toBe(true);
    expect(await entry('eu-ai-act', requirement)).toMatchObject({ evidenceCount: 1, evidenceExpired: true });
  });
});
