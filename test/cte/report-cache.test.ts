/**
 * Gap, coverage and framework-list reports are kept serialized per org until something changes them. A
 * write through the API drops them at once (other tests cover that on every route); here, with no write at
 * all, evidence expiring must still show: the cached reports last only until the next expiry that changes
 * the org's state.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

describe.each(dbKinds)('cached org reports on %s', (kind) => {
  let t: TestApp;
  const org = `${kind}-cached`;
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res.json();
  };
  const a52 = (gaps: { gaps: { controlId: string; recommendation: string }[] }) =>
    gaps.gaps.find((gap) => gap.controlId === 'A.5.2');

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(org);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it('recomputes them once the evidence of an implemented control has all expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-06-01T12:00:00Z'));
    const status = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${org}/controls/A.5.2/status`,
      body: { status: 'implemented', reviewer: 'rita' },
    });
    expect(status.statusCode).toBe(200);
    const evidence = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${org}/controls/A.5.2/evidence`,
      body: {
        type: 'link',
        title: 'Impact assessment',
        fileUrl: 'https://docs.example.com/ia',
        expiresAt: '2026-06-02T00:00:00Z',
      },
    });
    expect(evidence.statusCode).toBe(201);

    const gapsUrl = `/api/v1/cte/gaps/iso-42001?orgId=${org}`;
    const coverageUrl = `/api/v1/cte/coverage/iso-42001?orgId=${org}`;
    const frameworksUrl = `/api/v1/orgs/${org}/frameworks`;
    // The list counts direct records as recorded; its coverage reads the crosswalk, where expiry counts.
    const iso = (list: { frameworks: { frameworkId: string; coverage: number }[] }) =>
      list.frameworks.find((framework) => framework.frameworkId === 'iso-42001')?.coverage as number;
    const before = {
      gaps: await get(gapsUrl),
      coverage: await get(coverageUrl),
      list: await get(frameworksUrl),
    };
    expect(a52(before.gaps)).toBeUndefined();
    expect(iso(before.list)).toBeCloseTo(1 / 38, 4);
    // Read again from the cache: the same bodies.
    expect(await get(gapsUrl)).toEqual(before.gaps);
    expect(await get(frameworksUrl)).toEqual(before.list);

    // No write, only time: the evidence expires and every report says so.
    vi.setSystemTime(new Date('2026-06-02T00:00:01Z'));
    expect(a52(await get(gapsUrl))).toMatchObject({
      recommendation: expect.stringMatching(/^Renew the expired evidence on A\.5\.2/),
    });
    const coverage = await get(coverageUrl);
    expect(
      coverage.requirements.find((row: { requirementId: string }) => row.requirementId === 'A.5.2'),
    ).toMatchObject({ evidenceExpired: true, status: 'partial' });
    expect(iso(await get(frameworksUrl))).toBeCloseTo(0.5 / 38, 4);
  });
});
