import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENT_STATUSES } from '../../src/shared/vocabulary.js';
import { attestation } from '../attestations/helpers.js';
import { ADMIN_KEY, createTestApp, dbKinds, type TestApp } from '../support/app.js';

const ORG = '/api/v1/orgs/acme';
const NUL = '\u0000';

/** Malformed input the schemas cannot see and PostgreSQL cannot take: 400 naming the field, never 500. */
describe.each(dbKinds)('malformed input on %s', (kind) => {
  let t: TestApp;
  const expect400 = async (
    request: Parameters<TestApp['request']>[0],
    field: string | null,
  ): Promise<Record<string, unknown>> => {
    const res = await t.request(request);
    expect(res.statusCode, res.body).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('BAD_REQUEST');
    if (field !== null) expect(error.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    return error.details;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    [
      'PUT',
      `${ORG}/controls/A.2.2/applicability`,
      { applicable: true, justification: `a${NUL}`, reviewer: 'b' },
      'body.justification',
    ],
    [
      'PUT',
      `${ORG}/controls/A.2.2/applicability`,
      { applicable: true, justification: 'a', reviewer: NUL },
      'body.reviewer',
    ],
    ['PUT', `${ORG}/controls/A.2.2/status`, { status: 'implemented', reviewer: `${NUL}b` }, 'body.reviewer'],
    ['PUT', `${ORG}/controls/A.2.2/status`, { status: 'implemented', reviewer: 'b', note: NUL }, 'body.note'],
    ['POST', '/api/v1/orgs', { orgId: 'nul-org', name: `N${NUL}` }, 'body.name'],
    ['POST', '/api/v1/orgs', { orgId: 'nul-org', name: 'N', [NUL]: 1 }, `body.${NUL}`],
    ['POST', `${ORG}/keys`, { scopes: ['read'], name: NUL }, 'body.name'],
    ['POST', `${ORG}/sidecar-keys`, { publicKey: 'x', name: NUL }, 'body.name'],
    ['POST', `${ORG}/attestations`, attestation({ level: 'L0', controlIds: [`A.2.2${NUL}`] }), null],
    ['GET', '/api/v1/controls?search=%00', undefined, 'querystring.search'],
    ['GET', '/api/v1/controls?search=a&search=%00', undefined, 'querystring.search.1'],
    ['GET', '/api/v1/orgs/%00', undefined, 'params.orgId'],
    ['GET', '/api/v1/controls/A.2%00', undefined, 'params.controlId'],
    ['GET', `${ORG}/controls/%00`, undefined, 'params.controlId'],
    ['GET', `${ORG}/compliance/snapshots/%00`, undefined, 'params.snapshotId'],
    ['GET', `${ORG}/ai-systems/%00`, undefined, 'params.systemId'],
    ['GET', `${ORG}/impact-assessments/%00`, undefined, 'params.assessmentId'],
    [
      'PUT',
      `${ORG}/impact-assessments/ia-none`,
      { answers: { purposes: `a${NUL}` } },
      'body.answers.purposes',
    ],
    ['GET', `${ORG}/controls/A.2.2/evidence/%00`, undefined, 'params.evidenceId'],
    ['GET', `${ORG}/export/soa?snapshotId=%00`, undefined, 'querystring.snapshotId'],
    [
      'POST',
      `${ORG}/frameworks/iso-42001/requirements/import`,
      { reviewer: 'r', rows: [{ requirementId: 'A.2.2', note: `a${NUL}` }] },
      'body.rows.0.note',
    ],
    [
      'POST',
      `${ORG}/frameworks/iso-42001/requirements/import`,
      { reviewer: NUL, rows: [{ requirementId: 'A.2.2' }] },
      'body.reviewer',
    ],
    [
      'POST',
      `${ORG}/frameworks/iso-42001/requirements/import?reviewer=%00`,
      { rows: [] },
      'querystring.reviewer',
    ],
  ] as const)('refuses NUL: %s %s %j', async (method, url, body, field) => {
    await expect400({ method, url, body }, field);
  });

  it('refuses NUL and bytes that are not UTF-8 in an imported CSV file, naming the line', async () => {
    const url = `${ORG}/frameworks/iso-42001/requirements/import?reviewer=r`;
    const headers = { 'content-type': 'text/csv' };
    const nul = await expect400(
      { method: 'POST', url, headers, body: `requirementId,note\nA.2.2,a${NUL}\n` },
      null,
    );
    expect(nul.rows).toEqual([{ row: 2, column: 'note', message: expect.stringContaining('NUL') }]);
    const bytes = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, authorization: `Bearer ${ADMIN_KEY}` },
      payload: Buffer.from([0x69, 0x64, 0x0a, 0xc3, 0x28, 0x0a]),
    });
    expect(bytes.statusCode, bytes.body).toBe(400);
    expect(bytes.json().error.details).toEqual({ reason: 'invalid_utf8' });
  });

  it('keeps accepting NUL inside attestation claims, which are stored as JSON text', async () => {
    const body = attestation({ level: 'L0', claims: { note: `a${NUL}b` } });
    const res = await t.request({ method: 'POST', url: `${ORG}/attestations`, body });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await t.request({ method: 'GET', url: `${ORG}/attestations/${body.attestationId}` });
    expect(stored.json().claims).toEqual({ note: `a${NUL}b` });
  });

  it('names the values a field takes, whether the schema lists them or joins constants', async () => {
    const status = await expect400(
      { method: 'PUT', url: `${ORG}/controls/A.2.2/status`, body: { status: 'done', reviewer: 'b' } },
      'body.status',
    );
    expect(status.fields).toEqual([
      {
        field: 'body.status',
        message: `must be one of: ${REQUIREMENT_STATUSES.join(', ')}`,
        allowed: [...REQUIREMENT_STATUSES],
      },
    ]);
    const res = await t.request({
      method: 'POST',
      url: `${ORG}/attestations`,
      body: attestation({ level: 'L1' }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({
      message: 'body.level must be one of: L0, L2',
      details: {
        fields: [{ field: 'body.level', message: 'must be one of: L0, L2', allowed: ['L0', 'L2'] }],
      },
    });
  });

  it('answers a route that does not exist with 404 whatever its input', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/nothing?q=%00' });
    expect(res.statusCode).toBe(404);
  });

  it.each([
    ['a path parameter over 100 characters', `/api/v1/orgs/${'a'.repeat(101)}`, 'FST_ERR_MAX_PARAM_LENGTH'],
    ['a malformed percent-encoding', '/api/v1/orgs/%E0', 'FST_ERR_BAD_URL'],
  ])('renders the router refusing %s as 400 in the envelope', async (_case, url, reason) => {
    expect(await expect400({ method: 'GET', url }, null)).toEqual({ reason });
  });

  it.each([
    [
      'history in the year 0',
      'GET',
      `${ORG}/compliance/history?from=0000-01-01&to=0000-01-02`,
      undefined,
      'querystring.to',
    ],
    [
      'evidence effective in the year 0',
      'POST',
      `${ORG}/controls/A.2.2/evidence`,
      { type: 'link', title: 't', fileUrl: 'https://example.com/a', effectiveDate: '0000-06-01' },
      'body.effectiveDate',
    ],
    [
      'evidence expiring after the year 9999',
      'POST',
      `${ORG}/controls/A.2.2/evidence`,
      { type: 'link', title: 't', fileUrl: 'https://example.com/a', expiresAt: '9999-12-31T23:00:00-05:00' },
      'body.expiresAt',
    ],
    [
      'attestations from the year 0',
      'GET',
      `${ORG}/attestations?from=0000-01-01T00:00:00Z`,
      undefined,
      'querystring.from',
    ],
    [
      'an attestation made in the year 0',
      'POST',
      `${ORG}/attestations`,
      attestation({ level: 'L0', timestamp: '0000-01-01T00:00:00.000Z' }),
      'body.timestamp',
    ],
  ] as const)('refuses %s', async (_case, method, url, body, field) => {
    await expect400({ method, url, body }, field);
  });

  it.each([
    ['at the top', '{"orgId":"proto-org","name":"P","__proto__":{"admin":true}}', 'body.__proto__'],
    ['nested', '{"orgId":"proto-org","name":"P","x":[{"__proto__":1}]}', 'body.x.0.__proto__'],
    [
      'as constructor.prototype',
      '{"orgId":"proto-org","constructor":{"prototype":{}}}',
      'body.constructor.prototype',
    ],
  ])('refuses a body with a __proto__ member %s, naming it', async (_case, body, field) => {
    const details = await expect400(
      { method: 'POST', url: '/api/v1/orgs', body, headers: { 'content-type': 'application/json' } },
      field,
    );
    expect(details.reason).toBe('forbidden_member');
  });

  it('answers JSON with X-Content-Type-Options: nosniff, errors included', async () => {
    // The last two are refused by the router before any hook runs: an undecodable path, an unknown route.
    for (const url of [
      '/api/v1/orgs/acme',
      '/api/v1/orgs/nobody',
      '/healthz',
      '/api/v1/openapi.json',
      '/api/v1/orgs/%E0%A4%A',
      '/nowhere',
    ]) {
      const res = await t.request({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/json/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  describe('over every route of the OpenAPI document', () => {
    type Operation = {
      parameters?: { in: string; name: string; schema: { format?: string } }[];
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
    };
    type Route = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; operation: Operation };
    let routes: Route[];
    /** A real value for each path parameter, so that requests reach the handlers. */
    const PATH_VALUES: Record<string, string> = {
      orgId: 'acme',
      controlId: 'A.2.2',
      frameworkId: 'iso-42001',
      requirementId: 'A.2.2',
      keyId: 'k-none',
      evidenceId: 'e-none',
      snapshotId: 's-none',
      systemId: 'sys-none',
      epochId: 'epoch-1',
      attestationId: 'att-none',
      edgeId: 'edge-none',
      userId: 'usr-none',
      riskId: 'risk-none',
      auditId: 'aud-none',
      findingId: 'fnd-none',
      reviewId: 'rev-none',
      impactIndex: '0',
      assessmentId: 'ia-none',
      templateId: 'gdpr-dpia',
      documentId: 'doc-none',
      versionId: 'ver-none',
      webhookId: 'wh-none',
    };
    const urlOf = (path: string) =>
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        expect(PATH_VALUES, `a value for the path parameter ${name}`).toHaveProperty(name);
        return PATH_VALUES[name];
      });
    const DATE_NAME =
      /^(from|to|since|until|at|asOf|timestamp|effectiveDate|expiresAt|dueDate|reviewDate|plannedStart|plannedEnd|heldAt)$/;
    const FAR_DATES = [
      '9999-12-31',
      '9999-12-15',
      '9999-12-31T23:59:59.999Z',
      '9999-12-31T23:00:00-05:00',
      '0001-01-01',
      '0001-01-01T00:30:00+01:00',
      '0000-01-01',
      '+275760-09-13T00:00:00Z',
    ];
    /** Never a 500: a refusal is a 4xx in the error envelope. */
    const expectHandled = (res: LightMyRequestResponse, what: string) => {
      expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      if (res.statusCode >= 400) expect(res.json().error?.code, what).toEqual(expect.any(String));
    };

    beforeAll(async () => {
      const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json', key: null })).json();
      routes = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(
        ([path, operations]) =>
          Object.entries(operations).map(([method, operation]) => ({
            method: method.toUpperCase() as Route['method'],
            path,
            operation,
          })),
      );
      expect(routes.length).toBeGreaterThan(60);
    });

    it('answers far dates in every date or time query parameter with a response, not a 500', async () => {
      let tried = 0;
      for (const { method, path, operation } of routes) {
        const dateParameters = (operation.parameters ?? []).filter(
          (parameter) =>
            parameter.in === 'query' &&
            (DATE_NAME.test(parameter.name) || /^date/.test(parameter.schema.format ?? '')),
        );
        for (const { name } of dateParameters) {
          for (const value of FAR_DATES) {
            const url = `${urlOf(path)}?${name}=${encodeURIComponent(value)}`;
            expectHandled(await t.request({ method, url }), `${method} ${url}`);
            tried += 1;
          }
        }
      }
      expect(tried).toBeGreaterThanOrEqual(FAR_DATES.length * 8);
    });

    it('refuses the default expiry window running past the year 9999 with 400 naming from', async () => {
      await expect400({ method: 'GET', url: `${ORG}/evidence/expiring?from=9999-12-15` }, 'querystring.from');
    });

    /** Valid bodies of the routes whose body carries a date, to put a far date into. */
    const DATED_BODIES: Record<string, () => Record<string, unknown>> = {
      'POST /api/v1/orgs/{orgId}/frameworks/{frameworkId}/requirements/{requirementId}/evidence': () => ({
        type: 'link',
        title: 't',
        fileUrl: 'https://example.com/a',
      }),
      'POST /api/v1/orgs/{orgId}/controls/{controlId}/evidence': () => ({
        type: 'link',
        title: 't',
        fileUrl: 'https://example.com/a',
      }),
      'POST /api/v1/orgs/{orgId}/attestations': () => attestation({ level: 'L0', systemId: 'sweep' }),
      'POST /api/v1/orgs/{orgId}/members': () => ({ email: 'a@example.com', name: 'A', role: 'auditor' }),
      'PUT /api/v1/orgs/{orgId}/members/{userId}': () => ({ role: 'auditor' }),
      'POST /api/v1/orgs/{orgId}/risks/{riskId}/acceptance': () => ({ justification: 'j' }),
      'POST /api/v1/orgs/{orgId}/audits': () => ({
        title: 't',
        frameworkIds: ['iso-42001'],
        leadAuditor: 'l',
        plannedStart: '2026-01-01T00:00:00Z',
        plannedEnd: '2026-01-02T00:00:00Z',
      }),
      'PUT /api/v1/orgs/{orgId}/audits/{auditId}': () => ({ title: 't' }),
      'POST /api/v1/orgs/{orgId}/audits/{auditId}/findings': () => ({
        kind: 'observation',
        requirements: [],
        description: 'd',
      }),
      'PUT /api/v1/orgs/{orgId}/audits/{auditId}/findings/{findingId}': () => ({ owner: 'o' }),
      'POST /api/v1/orgs/{orgId}/risks': () => ({ title: 't', likelihood: 1, impact: 1 }),
      'PUT /api/v1/orgs/{orgId}/risks/{riskId}': () => ({ title: 't' }),
      'POST /api/v1/orgs/{orgId}/management-reviews': () => ({
        heldAt: '2026-01-01T00:00:00Z',
        attendees: ['a'],
        period: { from: '2025-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      }),
    };

    it('answers far dates in every date member of a body with a response, not a 500', async () => {
      const dated = routes.filter(({ operation }) =>
        Object.keys(operation.requestBody?.content['application/json']?.schema.properties ?? {}).some(
          (name) => DATE_NAME.test(name),
        ),
      );
      // A new route with a dated body joins DATED_BODIES, so that it is swept too.
      expect(dated.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
        Object.keys(DATED_BODIES).sort(),
      );
      for (const { method, path, operation } of dated) {
        const properties = operation.requestBody?.content['application/json'].schema.properties ?? {};
        for (const name of Object.keys(properties).filter((name) => DATE_NAME.test(name))) {
          for (const value of FAR_DATES) {
            const body = { ...DATED_BODIES[`${method} ${path}`](), [name]: value };
            expectHandled(
              await t.request({ method, url: urlOf(path), body }),
              `${method} ${path} ${name}=${value}`,
            );
          }
        }
      }
    });

    /** `{"a":{"a":…}}` or `[[…]]` nested `depth` times, written as text (no recursion to build it). */
    const deepJson = (depth: number, kind: 'object' | 'array') =>
      kind === 'object'
        ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
        : `${'['.repeat(depth)}1${']'.repeat(depth)}`;

    it('answers a body nested 5,000 deep, at the root and in every member, with a response, not a 500', async () => {
      const json = { 'content-type': 'application/json' };
      for (const { method, path, operation } of routes) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (!schema) continue;
        const url = urlOf(path);
        for (const kind of ['object', 'array'] as const) {
          const deep = deepJson(5000, kind);
          expectHandled(
            await t.request({ method, url, body: deep, headers: json }),
            `${method} ${path} ${kind}`,
          );
          for (const name of Object.keys(schema.properties ?? {})) {
            const body = `{${JSON.stringify(name)}:${deep}}`;
            expectHandled(await t.request({ method, url, body, headers: json }), `${method} ${path} ${name}`);
          }
        }
      }
    });

    it('refuses an OSCAL catalog nested 5,000 groups deep with 400', async () => {
      const open = '{"id":"g","title":"G","groups":['.repeat(5000);
      const catalog = `{"catalog":{"uuid":"7d1f4a5e-2b0c-4c4e-9a55-2f3e5e8a1b01","metadata":{"title":"Deep","last-modified":"2026-01-01T00:00:00Z","version":"1","oscal-version":"1.2.1"},"groups":[${open}${']}'.repeat(5000)}]}}`;
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/cte/frameworks/import',
        body: catalog,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    });

    it.each([
      [
        'a mapping from a requirement to itself',
        '/api/v1/cte/mappings',
        {
          sourceFrameworkId: 'iso-42001',
          sourceId: 'A.2.2',
          targetFrameworkId: 'iso-42001',
          targetId: 'A.2.2',
          relationship: 'equal',
          rationale: 'itself',
        },
      ],
    ])('refuses a self-reference: %s', async (_case, url, body) => {
      const res = await t.request({ method: 'POST', url, body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    });
  });
});
