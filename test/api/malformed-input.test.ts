import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attestation } from '../attestations/helpers.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

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
    ['GET', `${ORG}/controls/A.2.2/evidence/%00`, undefined, 'params.evidenceId'],
    ['GET', `${ORG}/export/soa?snapshotId=%00`, undefined, 'querystring.snapshotId'],
  ] as const)('refuses NUL: %s %s %j', async (method, url, body, field) => {
    await expect400({ method, url, body }, field);
  });

  it('keeps accepting NUL inside attestation claims, which are stored as JSON text', async () => {
    const body = attestation({ level: 'L0', claims: { note: `a${NUL}b` } });
    const res = await t.request({ method: 'POST', url: `${ORG}/attestations`, body });
    expect(res.statusCode, res.body).toBe(201);
    const stored = await t.request({ method: 'GET', url: `${ORG}/attestations/${body.attestationId}` });
    expect(stored.json().claims).toEqual({ note: `a${NUL}b` });
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
});
