import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { mappingCollectionErrors } from '../../src/features/cte/mapping-export.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { oscalCatalog } from '../support/oscal-catalog.js';

const CTE = '/api/v1/cte';
const CATALOG = 'vendor-ai-controls';
const SP_800_53 = 'sp-800-53';
const spCatalog = readFileSync(
  new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
  'utf8',
);

/** A small OSCAL catalog: nothing in the shipped crosswalk reaches it. */
const vendorCatalog = oscalCatalog('5a0c3e2d-7b1f-4c6a-9e8d-2f4b6a8c0e13', 'Vendor AI Controls', {
  groups: [
    {
      id: 'op',
      title: 'Operations',
      controls: [
        {
          id: 'log-1',
          title: 'Event logs of AI systems',
          prose:
            'Record event logs while an AI system runs and keep them so that its behaviour can be traced.',
        },
        {
          id: 'sup-1',
          title: 'Supplier model cards',
          prose: 'Obtain documentation of every third-party model from its supplier before use.',
        },
      ],
    },
  ],
});

const logEdge = {
  sourceFrameworkId: CATALOG,
  sourceId: 'log-1',
  targetFrameworkId: 'iso-42001',
  targetId: 'A.6.2.8',
  relationship: 'equal',
  rationale: 'Both ask for event logs of an AI system in operation.',
};

describe.each(dbKinds)('analyst crosswalk edges and suggestions on %s', { timeout: 120_000 }, (kind) => {
  let t: TestApp;
  const orgId = `${kind}-edges`;
  let tenantKey: string;

  const coverageOf = async (requirementId: string) => {
    const res = await t.request({ method: 'GET', url: `${CTE}/coverage/${CATALOG}?orgId=${orgId}` });
    expect(res.statusCode).toBe(200);
    return res
      .json()
      .requirements.find((row: { requirementId: string }) => row.requirementId === requirementId);
  };
  const gapIds = async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/gaps/${CATALOG}?orgId=${orgId}` });
    expect(res.statusCode).toBe(200);
    return res.json().gaps.map((gap: { controlId: string }) => gap.controlId);
  };
  const exportedMaps = async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/mappings` });
    expect(res.statusCode).toBe(200);
    expect(mappingCollectionErrors(res.json())).toEqual([]);
    return res
      .json()
      ['mapping-collection'].mappings.flatMap(
        (mapping: { maps: { uuid: string; props: { name: string; value: string }[] }[] }) => mapping.maps,
      );
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(orgId);
    tenantKey = await t.createKey(orgId, ['read', 'write', 'export']);
    const imported = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import?frameworkId=${CATALOG}`,
      body: vendorCatalog,
    });
    expect(imported.statusCode).toBe(201);
    const status = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${orgId}/controls/A.6.2.8/status`,
      body: { status: 'implemented', reviewer: 'alice' },
    });
    expect(status.statusCode).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('finds the requirements of other frameworks nearest to one, and says which an edge joins', async () => {
    const res = await t.request({
      method: 'GET',
      url: `${CTE}/frameworks/eu-ai-act/requirements/${encodeURIComponent('Art. 12')}/similar?limit=10`,
      key: tenantKey,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 12',
      model: expect.any(String),
    });
    expect(body.results).toHaveLength(10);
    const library = loadBuiltinLibrary();
    for (const hit of body.results) {
      expect(hit.frameworkId).not.toBe('eu-ai-act');
      const joined =
        library.edgesBetween({ frameworkId: 'eu-ai-act', requirementId: 'Art. 12' }, hit).length > 0;
      expect(hit.mapped, `${hit.frameworkId} ${hit.requirementId}`).toBe(joined);
    }
    const distances = body.results.map((hit: { distance: number }) => hit.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    // Record-keeping of the AI Act is nearest to ISO/IEC 42001's event logs, which the crosswalk joins.
    const onlyIso = await t.request({
      method: 'GET',
      url: `${CTE}/frameworks/eu-ai-act/requirements/${encodeURIComponent('Art. 12')}/similar?limit=3&frameworkId=iso-42001`,
    });
    expect(onlyIso.statusCode).toBe(200);
    const iso = onlyIso.json().results;
    expect(iso.every((hit: { frameworkId: string }) => hit.frameworkId === 'iso-42001')).toBe(true);
    expect(iso.find((hit: { requirementId: string }) => hit.requirementId === 'A.6.2.8')).toMatchObject({
      mapped: true,
    });
  });

  it('refuses similar requests for unknown requirements, the same framework or a bad limit', async () => {
    const base = `${CTE}/frameworks/iso-42001/requirements`;
    const unknown = await t.request({ method: 'GET', url: `${base}/A.99/similar` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Requirement not found',
    });
    const unknownFilter = await t.request({ method: 'GET', url: `${base}/A.6.2.8/similar?frameworkId=sox` });
    expect(unknownFilter.statusCode).toBe(404);
    const same = await t.request({ method: 'GET', url: `${base}/A.6.2.8/similar?frameworkId=iso-42001` });
    expect(same.statusCode).toBe(400);
    expect(same.json().error.details.fields[0].field).toBe('querystring.frameworkId');
    const limit = await t.request({ method: 'GET', url: `${base}/A.6.2.8/similar?limit=0` });
    expect(limit.statusCode).toBe(400);
    const anonymous = await t.request({ method: 'GET', url: `${base}/A.6.2.8/similar`, key: null });
    expect(anonymous.statusCode).toBe(401);
  });

  it('lets an analyst edge count an ISO control towards an imported requirement at once, and undoes it', async () => {
    expect(await coverageOf('log-1')).toMatchObject({ status: 'uncovered', coveredBy: [] });
    expect(await gapIds()).toContain('log-1');

    const created = await t.request({ method: 'POST', url: `${CTE}/mappings`, body: logEdge });
    expect(created.statusCode).toBe(201);
    const edge = created.json();
    expect(edge).toEqual({
      edgeId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ...logEdge,
      origin: 'analyst',
      inferred: true,
      createdBy: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(edge.createdAt)).not.toBeNaN();

    // Coverage, gaps and the explanation follow at once.
    expect(await coverageOf('log-1')).toMatchObject({
      status: 'covered',
      strength: 1,
      coveredBy: ['A.6.2.8'],
    });
    expect(await gapIds()).not.toContain('log-1');
    const why = await t.request({ method: 'GET', url: `${CTE}/coverage/${CATALOG}/log-1?orgId=${orgId}` });
    expect(why.json().justifications[0].path[0]).toMatchObject({
      origin: 'analyst',
      edgeId: edge.edgeId,
      relationship: 'equal',
    });
    // Also in the organization's view of the imported framework's requirement.
    const record = await t.request({
      method: 'GET',
      url: `/api/v1/orgs/${orgId}/frameworks/${CATALOG}/requirements/log-1`,
    });
    expect(record.statusCode).toBe(200);
    expect(JSON.stringify(record.json())).toContain(edge.edgeId);

    // The OSCAL mapping export carries it, marked as added.
    const map = (await exportedMaps()).find((entry: { uuid: string }) => entry.uuid === edge.edgeId);
    expect(map.props).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'origin', value: 'analyst' }),
        expect.objectContaining({ name: 'added', value: 'true' }),
        expect.objectContaining({ name: 'created-by', value: edge.createdBy }),
      ]),
    );

    // The pair is now mapped, and no longer suggested.
    const similar = await t.request({
      method: 'GET',
      url: `${CTE}/frameworks/${CATALOG}/requirements/log-1/similar?frameworkId=iso-42001&limit=38`,
    });
    expect(
      similar.json().results.find((hit: { requirementId: string }) => hit.requirementId === 'A.6.2.8'),
    ).toMatchObject({ mapped: true });
    const suggestions = await t.request({
      method: 'GET',
      url: `${CTE}/mappings/suggestions?from=${CATALOG}&to=iso-42001&limit=1000`,
    });
    expect(
      suggestions
        .json()
        .suggestions.filter((s: { sourceId: string; targetId: string }) => s.sourceId === 'log-1'),
    ).not.toContainEqual(expect.objectContaining({ targetId: 'A.6.2.8' }));

    const deleted = await t.request({ method: 'DELETE', url: `${CTE}/mappings/${edge.edgeId}` });
    expect(deleted.statusCode).toBe(204);
    expect(await coverageOf('log-1')).toMatchObject({ status: 'uncovered', coveredBy: [] });
    expect(await gapIds()).toContain('log-1');
    expect((await exportedMaps()).map((entry: { uuid: string }) => entry.uuid)).not.toContain(edge.edgeId);
    const again = await t.request({ method: 'DELETE', url: `${CTE}/mappings/${edge.edgeId}` });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { edgeId: edge.edgeId },
    });
  });

  it('answers 409 for an edge joining requirements already joined, either way round, and for shipped edges', async () => {
    const first = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: { ...logEdge, relationship: 'superset', source: 'Vendor mapping guide 2026' },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ inferred: false, source: 'Vendor mapping guide 2026' });
    const duplicate = await t.request({ method: 'POST', url: `${CTE}/mappings`, body: logEdge });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.details).toMatchObject({ edgeId: first.json().edgeId, shipped: false });
    const reversed = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: {
        sourceFrameworkId: 'iso-42001',
        sourceId: 'A.6.2.8',
        targetFrameworkId: CATALOG,
        targetId: 'log-1',
        relationship: 'superset',
        rationale: 'The same pair read the other way.',
      },
    });
    expect(reversed.statusCode).toBe(409);

    // The relationship counts: the ISO control is only part of log-1 (log-1 superset A.6.2.8), so partial.
    expect(await coverageOf('log-1')).toMatchObject({ status: 'partial', coveredBy: ['A.6.2.8'] });

    const shipped = loadBuiltinLibrary().edgesBetween(
      { frameworkId: 'eu-ai-act', requirementId: 'Art. 12' },
      { frameworkId: 'iso-42001', requirementId: 'A.6.2.8' },
    )[0];
    const shippedAgain = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: {
        sourceFrameworkId: 'iso-42001',
        sourceId: 'A.6.2.8',
        targetFrameworkId: 'eu-ai-act',
        targetId: 'Art. 12',
        relationship: 'intersect',
        rationale: 'Already shipped.',
      },
    });
    expect(shippedAgain.statusCode).toBe(409);
    expect(shippedAgain.json().error.details).toMatchObject({ edgeId: shipped.edgeId, shipped: true });
    const deleteShipped = await t.request({ method: 'DELETE', url: `${CTE}/mappings/${shipped.edgeId}` });
    expect(deleteShipped.statusCode).toBe(409);
    expect(deleteShipped.json().error.code).toBe('CONFLICT');
    // The shipped edge is still there.
    const map = (await exportedMaps()).find((entry: { uuid: string }) => entry.uuid === shipped.edgeId);
    expect(map).toBeDefined();

    expect(
      (await t.request({ method: 'DELETE', url: `${CTE}/mappings/${first.json().edgeId}` })).statusCode,
    ).toBe(204);
  });

  it('lets only one of two concurrent requests join the same two requirements', async () => {
    const [a, b] = await Promise.all([
      t.request({ method: 'POST', url: `${CTE}/mappings`, body: logEdge }),
      t.request({
        method: 'POST',
        url: `${CTE}/mappings`,
        body: { ...logEdge, relationship: 'intersect', rationale: 'The same pair, at the same moment.' },
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const [won, lost] = a.statusCode === 201 ? [a, b] : [b, a];
    expect(lost.json().error.details.edgeId).toBe(won.json().edgeId);
    expect(
      (await t.request({ method: 'DELETE', url: `${CTE}/mappings/${won.json().edgeId}` })).statusCode,
    ).toBe(204);
  });

  it('documents the new routes in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/cte/frameworks/{frameworkId}/requirements/{requirementId}/similar',
        '/api/v1/cte/mappings/suggestions',
        '/api/v1/cte/mappings/{edgeId}',
      ]),
    );
    expect(Object.keys(doc.paths['/api/v1/cte/mappings'])).toEqual(expect.arrayContaining(['get', 'post']));
    const created =
      doc.paths['/api/v1/cte/mappings'].post.responses['201'].content['application/json'].schema;
    expect(created.required).toEqual(expect.arrayContaining(['edgeId', 'origin', 'createdBy', 'createdAt']));
  });

  it('keeps adding and deleting edges to platform keys, and checks what it is given', async () => {
    const asTenant = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: logEdge,
      key: tenantKey,
    });
    expect(asTenant.statusCode).toBe(403);
    const shippedId = loadBuiltinLibrary().edges[0].edgeId;
    const deleteAsTenant = await t.request({
      method: 'DELETE',
      url: `${CTE}/mappings/${shippedId}`,
      key: tenantKey,
    });
    expect(deleteAsTenant.statusCode).toBe(403);
    const anonymous = await t.request({ method: 'POST', url: `${CTE}/mappings`, body: logEdge, key: null });
    expect(anonymous.statusCode).toBe(401);

    const bad = async (body: unknown, field: string) => {
      const res = await t.request({ method: 'POST', url: `${CTE}/mappings`, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    };
    await bad({ ...logEdge, relationship: 'related' }, 'body.relationship');
    await bad({ ...logEdge, rationale: '   ' }, 'body.rationale');
    await bad({ ...logEdge, confidence: 'high' }, 'body.confidence');
    await bad({ ...logEdge, targetFrameworkId: CATALOG, targetId: 'sup-1' }, 'body.targetFrameworkId');
    const { rationale: _omitted, ...withoutRationale } = logEdge;
    await bad(withoutRationale, 'body.rationale');

    const unknown = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: { ...logEdge, targetId: 'A.99' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.details).toMatchObject({ field: 'body.targetId', requirementId: 'A.99' });
    const unknownFramework = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: { ...logEdge, sourceFrameworkId: 'sox' },
    });
    expect(unknownFramework.statusCode).toBe(404);

    const notAnId = await t.request({ method: 'DELETE', url: `${CTE}/mappings/not-an-id` });
    expect(notAnId.statusCode).toBe(400);
    const missing = await t.request({
      method: 'DELETE',
      url: `${CTE}/mappings/00000000-0000-4000-8000-000000000000`,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('suggests edges from the real SP 800-53 catalog to ISO/IEC 42001 and 27001', async () => {
    const imported = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import?frameworkId=${SP_800_53}`,
      body: spCatalog,
      headers: { 'content-type': 'application/json' },
    });
    expect(imported.statusCode).toBe(201);
    const suggest = async (to: string, query = '') => {
      const res = await t.request({
        method: 'GET',
        url: `${CTE}/mappings/suggestions?from=${SP_800_53}&to=${to}${query}`,
        key: tenantKey,
      });
      expect(res.statusCode).toBe(200);
      return res.json();
    };
    const iso42001 = await suggest('iso-42001', '&limit=1000');
    expect(iso42001).toMatchObject({ from: SP_800_53, to: 'iso-42001', model: expect.any(String) });
    const scores = iso42001.suggestions.map((s: { score: number }) => s.score);
    expect(scores.length).toBeGreaterThan(100);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const library = loadBuiltinLibrary();
    for (const s of iso42001.suggestions.slice(0, 50)) {
      expect(library.requirement('iso-42001', s.targetId), s.targetId).toBeDefined();
      expect(['equal', 'subset', 'superset', 'intersect']).toContain(s.relationship);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
      expect(s.rationale.length).toBeGreaterThan(20);
    }
    // Event logging in SP 800-53 is proposed for the logging controls of both standards.
    const targetsOf = (list: { sourceId: string; targetId: string }[], sourceId: string) =>
      list.filter((s) => s.sourceId === sourceId).map((s) => s.targetId);
    expect(targetsOf(iso42001.suggestions, 'AU-2')).toContain('A.6.2.8');
    const iso27001 = await suggest('iso-27001', '&limit=1000');
    expect(targetsOf(iso27001.suggestions, 'AU-2')).toContain('A.8.15');

    const strong = await suggest('iso-27001', '&minScore=0.5&limit=5');
    expect(strong.suggestions.length).toBeLessThanOrEqual(5);
    for (const s of strong.suggestions) expect(s.score).toBeGreaterThanOrEqual(0.5);

    // Accepting a suggestion removes it from the list.
    const [best] = iso27001.suggestions;
    const accepted = await t.request({
      method: 'POST',
      url: `${CTE}/mappings`,
      body: {
        sourceFrameworkId: SP_800_53,
        sourceId: best.sourceId,
        targetFrameworkId: 'iso-27001',
        targetId: best.targetId,
        relationship: best.relationship,
        rationale: best.rationale,
      },
    });
    expect(accepted.statusCode).toBe(201);
    const after = await suggest('iso-27001', '&limit=1000');
    expect(after.suggestions).not.toContainEqual(
      expect.objectContaining({ sourceId: best.sourceId, targetId: best.targetId }),
    );

    const same = await t.request({ method: 'GET', url: `${CTE}/mappings/suggestions?from=gdpr&to=gdpr` });
    expect(same.statusCode).toBe(400);
    const unknown = await t.request({ method: 'GET', url: `${CTE}/mappings/suggestions?from=sox&to=gdpr` });
    expect(unknown.statusCode).toBe(404);
    const missing = await t.request({ method: 'GET', url: `${CTE}/mappings/suggestions?from=gdpr` });
    expect(missing.statusCode).toBe(400);
  });
});
