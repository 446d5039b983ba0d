import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createTestApp, type TestApp } from '../support/app.js';

const ORG = 'text-org';
const LONE = 'must not contain unpaired surrogates (U+D800 to U+DFFF)';
const INVALID = 'must be valid UTF-8';

/** One rule for all text: invalid UTF-8 and lone surrogates are refused with 400 naming the field. */
describe('the text rule', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('postgres');
    await t.createOrg(ORG);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const raw = (method: 'POST' | 'PUT', url: string, payload: string | Buffer) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      payload,
    });
  const expectRefused = (
    res: { statusCode: number; json(): { error: { code: string; details: unknown } } },
    field: string,
    message: string,
  ) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details).toMatchObject({ fields: [{ field, message }] });
  };
  /** `"<marker>"` in a JSON text replaced by the given bytes. */
  const withBytes = (json: string, bytes: number[]) => {
    const [before, after] = json.split('"MARK"');
    return Buffer.concat([Buffer.from(`${before}"`), Buffer.from(bytes), Buffer.from(`"${after}`)]);
  };

  const cases: [string, 'POST' | 'PUT', string, string, string][] = [
    ['an org name', 'POST', '/api/v1/orgs', '{"orgId":"t2","name":MARK}', 'body.name'],
    [
      'an AI system purpose',
      'POST',
      `/api/v1/orgs/${ORG}/ai-systems`,
      '{"name":"bot","owner":"cx","purpose":MARK,"riskLevel":"limited"}',
      'body.purpose',
    ],
    ['a key name', 'POST', `/api/v1/orgs/${ORG}/keys`, '{"scopes":["read"],"name":MARK}', 'body.name'],
    [
      'a status note',
      'PUT',
      `/api/v1/orgs/${ORG}/controls/A.2.2/status`,
      '{"status":"in_progress","note":MARK}',
      'body.note',
    ],
  ];

  it.each(cases)('refuses a lone surrogate in %s', async (_name, method, url, template, field) => {
    expectRefused(await raw(method, url, template.replace('MARK', '"a\\ud800b"')), field, LONE);
    expectRefused(await raw(method, url, template.replace('MARK', '"a\\udc00"')), field, LONE);
  });

  it.each(cases)('refuses invalid UTF-8 in %s', async (_name, method, url, template, field) => {
    const json = template.replace('MARK', '"MARK"');
    // A lone byte, an encoded surrogate (ED A0 80), an overlong slash and a truncated sequence.
    for (const bytes of [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x61, 0xe2, 0x82]]) {
      expectRefused(await raw(method, url, withBytes(json, bytes)), field, INVALID);
    }
  });

  it('refuses both in attestation claims, naming the member', async () => {
    const attestationKey = await t.createKey(ORG, ['attest']);
    const body = JSON.stringify({
      attestationId: 'text-1',
      level: 'L0',
      epochId: 'e',
      controlIds: ['A.6.2.6'],
      timestamp: '2026-11-22T10:00:00.000Z',
      claims: { model: 'MARK' },
    });
    const post = (payload: string | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${ORG}/attestations`,
        headers: { authorization: `Bearer ${attestationKey}`, 'content-type': 'application/json' },
        payload,
      });
    expectRefused(await post(withBytes(body, [0xff])), 'body.claims.model', INVALID);
    expectRefused(await post(body.replace('"MARK"', '"\\ud800"')), 'body.claims.model', LONE);
  });

  it('refuses them in a query, and a body that is neither UTF-8 nor JSON', async () => {
    for (const search of ['%FF', '%ED%A0%80']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/controls?search=${search}` });
      expectRefused(res, 'querystring.search', INVALID);
    }
    const res = await raw('POST', '/api/v1/orgs', Buffer.from([0x7b, 0xff, 0x7d]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual({ reason: 'invalid_utf8' });
  });

  it('keeps well-formed text exactly, astral characters and U+FFFD included', async () => {
    const name = 'Acme \ud83d\ude00 \ufffd é';
    const escaped = '"Acme \\ud83d\\ude00 \\ufffd \\u00e9"';
    const created = await raw('POST', '/api/v1/orgs', `{"orgId":"t3","name":${escaped}}`);
    expect(created.statusCode).toBe(201);
    const read = await t.request({ method: 'GET', url: '/api/v1/orgs/t3' });
    expect(read.json().name).toBe(name);
  });
});
