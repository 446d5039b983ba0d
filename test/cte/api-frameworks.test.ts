import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadStoredFrameworks } from '../../src/features/cte/frameworks.store.js';
import { BUILTIN_FRAMEWORK_IDS, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { mappingCollectionErrors } from '../../src/features/cte/mapping-export.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const catalogText = readFileSync(
  new URL('../fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
  'utf8',
);
const SP_800_53 = 'nist-special-publication-800-53-revision-5';
const CTE = '/api/v1/cte';

/** A one-control catalog that passes the OSCAL schema. */
function tinyCatalog(title: string, controlTitle = 'Keep an inventory') {
  return {
    catalog: {
      uuid: '0f7a4c1e-9b2d-4e57-8c31-6d2a9e4b7f10',
      metadata: {
        title,
        'last-modified': '2026-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.2.1',
      },
      controls: [
        {
          id: 'inv-1',
          title: controlTitle,
          parts: [{ id: 'inv-1_smt', name: 'statement', prose: 'Keep an inventory of every AI model.' }],
        },
      ],
    },
  };
}

describe.each(dbKinds)('CTE frameworks API on %s', (kind) => {
  let t: TestApp;
  let readKey: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(`${kind}-fw`);
    readKey = await t.createKey(`${kind}-fw`, ['read', 'write']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the built-in frameworks exactly, with counts and domains', async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/frameworks`, key: readKey });
    expect(res.statusCode).toBe(200);
    const { frameworks } = res.json();
    expect(Object.keys(res.json())).toEqual(['frameworks']);
    expect(frameworks).toEqual([
      { id: 'iso-42001', name: 'ISO/IEC 42001:2023', controlCount: 38, domains: 9 },
      {
        id: 'nist-ai-rmf',
        name: 'NIST AI Risk Management Framework (AI RMF 1.0)',
        controlCount: 72,
        domains: 19,
      },
      { id: 'eu-ai-act', name: expect.stringContaining('Artificial Intelligence Act'), controlCount: 60 },
      { id: 'iso-27001', name: 'ISO/IEC 27001:2022', controlCount: 93, domains: 4 },
      { id: 'gdpr', name: expect.stringContaining('General Data Protection Regulation'), controlCount: 36 },
      {
        id: 'iso-42001-clauses',
        name: 'ISO/IEC 42001:2023 management-system clauses',
        controlCount: 36,
        domains: 7,
      },
      {
        id: 'iso-27001-clauses',
        name: 'ISO/IEC 27001:2022 management-system clauses',
        controlCount: 34,
        domains: 7,
      },
    ]);
    // Regulations have no domains: the member is absent, not null.
    expect(Object.keys(frameworks[2])).toEqual(['id', 'name', 'controlCount']);
  });

  it('shows one framework with every requirement in its official notation', async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/frameworks/iso-27001` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ id: 'iso-27001', version: '2022', kind: 'standard', imported: false });
    expect(body.controls).toHaveLength(93);
    expect(body.domainList.map((domain: { id: string }) => domain.id)).toEqual(['A.5', 'A.6', 'A.7', 'A.8']);
    const perDomain = body.domainList.map((domain: { controlCount: number }) => domain.controlCount);
    expect(perDomain).toEqual([37, 8, 14, 34]);
    expect(body.controls[0]).toMatchObject({ controlId: 'A.5.1', domain: 'A.5', legal: false });

    const euAiAct = (await t.request({ method: 'GET', url: `${CTE}/frameworks/eu-ai-act` })).json();
    const fixture = loadBuiltinLibrary().framework('eu-ai-act')!;
    expect(euAiAct.domainList).toBeUndefined();
    // Every field of every requirement survives, parameters included, under the API's controlId name.
    expect(euAiAct.controls).toEqual(
      fixture.requirements.map(({ id, ...requirement }) => ({ controlId: id, ...requirement })),
    );
    expect(euAiAct.controls.some((control: { parameters?: unknown[] }) => control.parameters?.length)).toBe(
      true,
    );
  });

  it('shows the NIST AI RMF functions above its categories, with their sizes', async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/frameworks/nist-ai-rmf` });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.functions).toEqual([
      { id: 'GOVERN', title: 'Govern', domainCount: 6, controlCount: 19 },
      { id: 'MAP', title: 'Map', domainCount: 5, controlCount: 18 },
      { id: 'MEASURE', title: 'Measure', domainCount: 4, controlCount: 22 },
      { id: 'MANAGE', title: 'Manage', domainCount: 4, controlCount: 13 },
    ]);
    expect(body.domainList).toHaveLength(19);
    expect(body.domainList[0]).toMatchObject({ id: 'GOVERN 1', function: 'GOVERN', controlCount: 7 });
    expect(body.domainList.at(-1)).toMatchObject({ id: 'MANAGE 4', function: 'MANAGE' });
    // Frameworks without functions have no such member.
    const iso = (await t.request({ method: 'GET', url: `${CTE}/frameworks/iso-27001` })).json();
    expect(iso.functions).toBeUndefined();
    expect(Object.keys(iso.domainList[0])).toEqual(['id', 'title', 'controlCount']);
  });

  it('answers an unknown framework with RESOURCE_NOT_FOUND', async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/frameworks/sox` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Framework not found', details: { frameworkId: 'sox' } },
    });
  });

  it('needs a key, and the admin scope to import', async () => {
    expect((await t.request({ method: 'GET', url: `${CTE}/frameworks`, key: null })).statusCode).toBe(401);
    const attestOnly = await t.createKey(`${kind}-fw`, ['attest']);
    const noRead = await t.request({ method: 'GET', url: `${CTE}/frameworks`, key: attestOnly });
    expect(noRead.statusCode).toBe(403);
    expect(noRead.json().error).toMatchObject({ code: 'FORBIDDEN', details: { requiredScope: 'read' } });
    const res = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: tinyCatalog('Tenant Catalog'),
      key: readKey,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.details).toEqual({ requiredScope: 'admin' });
  });

  it('imports the SP 800-53 rev5 catalog (over the default body limit) and stores it', async () => {
    expect(catalogText.length).toBeGreaterThan(t.config.bodyLimitBytes);
    const res = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: catalogText,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(`/api/v1/cte/frameworks/${SP_800_53}`);
    expect(res.json()).toEqual({
      id: SP_800_53,
      name: expect.stringMatching(/^NIST Special Publication 800-53 Revision 5/),
      controlCount: 322 + 867 - 182,
      domains: 20,
      version: expect.any(String),
      skippedWithdrawn: 182,
      outcome: 'created',
    });
    const stored = await loadStoredFrameworks(t.db.em());
    expect(stored.map((row) => row.frameworkId)).toEqual([SP_800_53]);
    expect(stored[0].framework.requirements).toHaveLength(1007);

    const list = (await t.request({ method: 'GET', url: `${CTE}/frameworks` })).json().frameworks;
    expect(list.map((framework: { id: string }) => framework.id)).toEqual([
      ...BUILTIN_FRAMEWORK_IDS,
      SP_800_53,
    ]);
    const detail = (await t.request({ method: 'GET', url: `${CTE}/frameworks/${SP_800_53}` })).json();
    expect(detail).toMatchObject({ kind: 'catalog', imported: true, controlCount: 1007, domains: 20 });
    const ac21 = detail.controls.find((control: { controlId: string }) => control.controlId === 'AC-2(1)');
    expect(ac21).toMatchObject({ domain: 'ac', title: 'Automated System Account Management' });
    expect(detail.controls.some((control: { controlId: string }) => control.controlId === 'AC-2(10)')).toBe(
      false,
    );
  });

  it('re-imports idempotently: the same catalog changes nothing, a changed one replaces it', async () => {
    const again = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: catalogText,
      headers: { 'content-type': 'application/json' },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ id: SP_800_53, controlCount: 1007, outcome: 'unchanged' });

    const first = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: tinyCatalog('Model Inventory Catalog: draft'),
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      id: 'model-inventory-catalog',
      controlCount: 1,
      outcome: 'created',
    });
    expect(first.json().domains).toBeUndefined();
    const changed = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: tinyCatalog('Model Inventory Catalog: final', 'Maintain the model inventory'),
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().outcome).toBe('replaced');
    const detail = (
      await t.request({ method: 'GET', url: `${CTE}/frameworks/model-inventory-catalog` })
    ).json();
    expect(detail.name).toBe('Model Inventory Catalog: final');
    expect(detail.controls).toEqual([
      {
        controlId: 'inv-1',
        title: 'Maintain the model inventory',
        description: 'Keep an inventory of every AI model.',
        legal: false,
      },
    ]);
    const ids = (await t.request({ method: 'GET', url: `${CTE}/frameworks` }))
      .json()
      .frameworks.map((framework: { id: string }) => framework.id);
    expect(ids.filter((id: string) => id === 'model-inventory-catalog')).toHaveLength(1);
    expect(ids).toHaveLength(BUILTIN_FRAMEWORK_IDS.length + 2);
  });

  it('imports under a chosen id, but never over a built-in framework', async () => {
    const chosen = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import?frameworkId=inventory-v2`,
      body: tinyCatalog('Model Inventory Catalog'),
    });
    expect(chosen.statusCode).toBe(201);
    expect(chosen.json().id).toBe('inventory-v2');
    const builtin = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import?frameworkId=iso-42001`,
      body: tinyCatalog('Model Inventory Catalog'),
    });
    expect(builtin.statusCode).toBe(409);
    expect(builtin.json().error).toMatchObject({ code: 'CONFLICT', details: { frameworkId: 'iso-42001' } });
    const badId = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import?frameworkId=Not%20A%20Slug`,
      body: tinyCatalog('Model Inventory Catalog'),
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error.details.fields[0].field).toBe('querystring.frameworkId');
  });

  it('refuses what is not a valid OSCAL catalog', async () => {
    const cases: { body: unknown; message: RegExp }[] = [
      { body: [1, 2], message: /must be object/ },
      { body: { profile: { uuid: 'x' } }, message: /resolve the profile into a catalog first/ },
      { body: { catalog: { uuid: 'x' } }, message: /does not match the OSCAL catalog schema/ },
      { body: '{"catalog": ', message: /JSON/i },
    ];
    for (const { body, message } of cases) {
      const res = await t.request({
        method: 'POST',
        url: `${CTE}/frameworks/import`,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.message).toMatch(message);
    }
    const invalid = await t.request({
      method: 'POST',
      url: `${CTE}/frameworks/import`,
      body: { catalog: { uuid: 'x' } },
    });
    expect(invalid.json().error.details.problems.length).toBeGreaterThan(0);
    const withdrawnOnly = tinyCatalog('Withdrawn Catalog');
    Object.assign(withdrawnOnly.catalog.controls[0], { props: [{ name: 'status', value: 'withdrawn' }] });
    const empty = await t.request({ method: 'POST', url: `${CTE}/frameworks/import`, body: withdrawnOnly });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.reason).toBe('empty-catalog');
  });

  it('refuses a catalog whose parameter inserts itself with 400 naming it, storing nothing', async () => {
    const selfInserting = tinyCatalog('Self Inserting Catalog');
    const insert = '{{ insert: param, p1 }}';
    Object.assign(selfInserting.catalog.controls[0], {
      params: [{ id: 'p1', values: [Array(12).fill(insert).join(' ')] }],
      parts: [{ id: 'inv-1_smt', name: 'statement', prose: `Keep ${insert}.` }],
    });
    const res = await t.request({ method: 'POST', url: `${CTE}/frameworks/import`, body: selfInserting });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'The parameter p1 inserts itself (p1 → p1)',
      details: { reason: 'invalid-catalog' },
    });
    const stored = await loadStoredFrameworks(t.db.em());
    expect(stored.map((framework) => framework.framework.name)).not.toContain('Self Inserting Catalog');
  });

  it('exports the crosswalk as a schema-valid OSCAL mapping-collection', async () => {
    const res = await t.request({ method: 'GET', url: `${CTE}/mappings`, key: readKey });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(mappingCollectionErrors(document)).toEqual([]);
    const maps = document['mapping-collection'].mappings.flatMap(
      (mapping: { maps: unknown[] }) => mapping.maps,
    );
    expect(maps).toHaveLength(loadBuiltinLibrary().edges.length);
    const names = {
      equal: 'equal-to',
      subset: 'subset-of',
      superset: 'superset-of',
      intersect: 'intersects-with',
    };
    expect(maps.map((map: { relationship: string }) => map.relationship).sort()).toEqual(
      loadBuiltinLibrary()
        .edges.map((edge) => names[edge.relationship])
        .sort(),
    );
  });

  it('documents every CTE route in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1/cte/'))).toEqual(
      expect.arrayContaining([
        '/api/v1/cte/frameworks',
        '/api/v1/cte/frameworks/{frameworkId}',
        '/api/v1/cte/frameworks/import',
        '/api/v1/cte/gaps/{frameworkId}',
        '/api/v1/cte/coverage',
        '/api/v1/cte/coverage/{frameworkId}',
        '/api/v1/cte/coverage/{frameworkId}/{requirementId}',
        '/api/v1/cte/conflicts',
        '/api/v1/cte/embeddings/distance',
        '/api/v1/cte/mappings',
      ]),
    );
    const ok = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok('/api/v1/cte/frameworks/{frameworkId}').properties)).toContain('functions');
    // The list stays exactly as the spec has it.
    expect(Object.keys(ok('/api/v1/cte/frameworks').properties.frameworks.items.properties)).toEqual([
      'id',
      'name',
      'controlCount',
      'domains',
    ]);
  });
});
