import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertEvidence } from '../../src/features/evidence/evidence.store.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const base = '/api/v1/orgs/acme/controls';

interface EvidenceItem {
  evidenceId: string;
  type: string;
  title: string;
  createdAt: string;
  expired: boolean;
}

describe.each(dbKinds)('evidence on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await t.createOrg('other');
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (controlId: string, body: unknown, key?: string | null) =>
    t.request({ method: 'POST', url: `${base}/${controlId}/evidence`, body, key });

  it('attaches a document and returns it with its location', async () => {
    const res = await post('A.2.2', {
      type: 'document',
      title: 'AI policy v3',
      description: 'Board-approved',
      fileUrl: 'https://files.example.com/policy-v3.pdf',
      effectiveDate: '2026-01-01',
      expiresAt: '2099-01-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      controlId: 'A.2.2',
      type: 'document',
      title: 'AI policy v3',
      description: 'Board-approved',
      fileUrl: 'https://files.example.com/policy-v3.pdf',
      attestationId: null,
      effectiveDate: '2026-01-01T00:00:00.000Z',
      expiresAt: '2099-01-01T00:00:00.000Z',
      expired: false,
    });
    expect(body.createdBy).toEqual(expect.any(String));
    expect(res.headers.location).toBe(`${base}/A.2.2/evidence/${body.evidenceId}`);
    const fetched = await t.request({ method: 'GET', url: res.headers.location as string });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(body);
  });

  it('accepts attestation evidence without a file, and defaults optional fields to null', async () => {
    const res = await post('A.2.2', { type: 'attestation', title: 'Sidecar self-report' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      description: null,
      fileUrl: null,
      effectiveDate: null,
      expiresAt: null,
    });
  });

  it.each([
    ['a link without fileUrl', { type: 'link', title: 'x' }, 'body.fileUrl'],
    ['a document without fileUrl', { type: 'document', title: 'x' }, 'body.fileUrl'],
    ['a relative fileUrl', { type: 'link', title: 'x', fileUrl: '/files/a.pdf' }, 'body.fileUrl'],
    ['an ftp fileUrl', { type: 'link', title: 'x', fileUrl: 'ftp://example.com/a' }, 'body.fileUrl'],
    ['a fileUrl without host', { type: 'link', title: 'x', fileUrl: 'http://' }, 'body.fileUrl'],
    [
      'credentials in the fileUrl',
      { type: 'link', title: 'x', fileUrl: 'https://alice:s3cret@files.example/p.pdf' },
      'body.fileUrl',
    ],
    [
      'a user name in the fileUrl',
      { type: 'document', title: 'x', fileUrl: 'https://alice@files.example/p.pdf' },
      'body.fileUrl',
    ],
    ['no title', { type: 'attestation' }, 'body.title'],
    ['an empty title', { type: 'attestation', title: '' }, 'body.title'],
    ['a NUL in the title', { type: 'attestation', title: 'a\u0000b' }, 'body.title'],
    ['a lone surrogate', { type: 'attestation', title: 'a\ud800b' }, 'body.title'],
    ['an unknown type', { type: 'video', title: 'x' }, 'body.type'],
    ['a wrong JSON type', { type: 'attestation', title: 42 }, 'body.title'],
    ['an unknown member', { type: 'attestation', title: 'x', color: 'red' }, 'body.color'],
    ['an impossible date', { type: 'attestation', title: 'x', expiresAt: '2026-02-30' }, 'body.expiresAt'],
    [
      'a malformed date',
      { type: 'attestation', title: 'x', effectiveDate: 'yesterday' },
      'body.effectiveDate',
    ],
    [
      'expiry before effect',
      { type: 'attestation', title: 'x', effectiveDate: '2026-05-01', expiresAt: '2026-04-01' },
      'body.expiresAt',
    ],
  ])('rejects %s with 400 naming the field', async (_case, body, field) => {
    const res = await post('A.2.2', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.json().error.details.fields[0].field).toBe(field);
  });

  it('rejects a non-JSON body with 400', async () => {
    const res = await t.request({
      method: 'POST',
      url: `${base}/A.2.2/evidence`,
      body: '{"type":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers an unknown control or org with RESOURCE_NOT_FOUND', async () => {
    const control = await post('A.99', { type: 'attestation', title: 'x' });
    expect(control.statusCode).toBe(404);
    expect(control.json()).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Control not found', details: { controlId: 'A.99' } },
    });
    const list = await t.request({ method: 'GET', url: `${base}/A.99/evidence` });
    expect(list.statusCode).toBe(404);
    expect(list.json().error.details).toEqual({ controlId: 'A.99' });
    const org = await t.request({ method: 'GET', url: '/api/v1/orgs/nope/controls/A.2.2/evidence' });
    expect(org.statusCode).toBe(404);
    expect(org.json().error.message).toBe('Organization not found');
    const item = await t.request({ method: 'GET', url: `${base}/A.2.2/evidence/missing` });
    expect(item.json().error).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { evidenceId: 'missing' },
    });
  });

  it('enforces keys: 401 without, 403 read-only, 403 for another org', async () => {
    const evidence = { type: 'attestation', title: 'x' };
    expect((await post('A.2.2', evidence, null)).statusCode).toBe(401);
    const reader = await t.createKey('acme', ['read']);
    expect((await post('A.2.2', evidence, reader)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `${base}/A.2.2/evidence`, key: reader })).statusCode).toBe(
      200,
    );
    const otherWriter = await t.createKey('other', ['write']);
    expect((await post('A.2.2', evidence, otherWriter)).statusCode).toBe(403);
    const writer = await t.createKey('acme', ['write']);
    expect((await post('A.2.2', evidence, writer)).statusCode).toBe(201);
  });

  describe('lists', () => {
    const control = 'A.3.2';
    beforeAll(async () => {
      for (let index = 0; index < 12; index += 1) {
        const type = index % 3 === 0 ? 'link' : 'attestation';
        const res = await post(control, {
          type,
          title: `item ${index}`,
          ...(type === 'link' ? { fileUrl: `https://example.com/${index}` } : {}),
        });
        expect(res.statusCode).toBe(201);
      }
    });

    const page = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `${base}/${control}/evidence?${query}` });
      expect(res.statusCode).toBe(200);
      return res.json() as { evidence: EvidenceItem[]; total: number; limit: number; offset: number };
    };

    it('pages newest first with a stable order and the total', async () => {
      const all = await page('');
      expect(all).toMatchObject({ total: 12, limit: 50, offset: 0 });
      expect(all.evidence).toHaveLength(12);
      const times = all.evidence.map((item) => item.createdAt);
      expect([...times].sort().reverse()).toEqual(times);
      const pages = [await page('limit=5'), await page('limit=5&offset=5'), await page('limit=5&offset=10')];
      expect(pages.map((p) => p.evidence.length)).toEqual([5, 5, 2]);
      expect(pages.flatMap((p) => p.evidence.map((item) => item.evidenceId))).toEqual(
        all.evidence.map((item) => item.evidenceId),
      );
      expect(pages.every((p) => p.total === 12)).toBe(true);
      expect((await page('offset=20')).evidence).toEqual([]);
    });

    it('filters by type with a matching total', async () => {
      const links = await page('type=link&limit=2');
      expect(links.total).toBe(4);
      expect(links.evidence).toHaveLength(2);
      expect(links.evidence.every((item) => item.type === 'link')).toBe(true);
      expect((await page('type=document')).total).toBe(0);
    });

    it('keeps every roll-up (columns and unfolded attestation pieces) equal to the rows it sums up', async () => {
      const mismatches = await t.db.em().execute(
        `select oc.requirement_id as control_id from requirement_records oc
         left join (select org_id, framework_id, requirement_id, count(*)::int as total,
             count(*) filter (where type = 'attestation')::int as attestations,
             count(*) filter (where type = 'document')::int as documents,
             count(*) filter (where type = 'link')::int as links
           from evidence group by org_id, framework_id, requirement_id) e on e.org_id = oc.org_id
           and e.framework_id = oc.framework_id and e.requirement_id = oc.requirement_id
         left join (select org_id, framework_id, requirement_id, sum(attestations)::int as added
           from requirement_evidence_pieces group by org_id, framework_id, requirement_id) p
           on p.org_id = oc.org_id and p.framework_id = oc.framework_id and p.requirement_id = oc.requirement_id
         where oc.evidence_count + coalesce(p.added, 0) <> coalesce(e.total, 0)
           or oc.evidence_attestation_count + coalesce(p.added, 0) <> coalesce(e.attestations, 0)
           or oc.evidence_document_count <> coalesce(e.documents, 0)
           or oc.evidence_link_count <> coalesce(e.links, 0)`,
      );
      expect(mismatches).toEqual([]);
      const [{ controls }] = await t.db.em().execute<{ controls: number }[]>(
        `select count(*)::int as controls from requirement_records r
           where evidence_count > 0 or exists (select 1 from requirement_evidence_pieces p
             where p.org_id = r.org_id and p.framework_id = r.framework_id and p.requirement_id = r.requirement_id)`,
      );
      expect(controls).toBeGreaterThan(1);
    });

    it.each(['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'offset=-1', 'type=video'])(
      'rejects %s with 400',
      async (query) => {
        const res = await t.request({ method: 'GET', url: `${base}/${control}/evidence?${query}` });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('BAD_REQUEST');
      },
    );
  });

  describe('deep pages', () => {
    const control = 'A.5.2';
    beforeAll(async () => {
      // 1200 rows through the one writer, with timestamps that tie in pairs to exercise the tie-break.
      const base = Date.parse('2026-01-01T00:00:00Z');
      await t.db.em().transactional((tx) =>
        insertEvidence(
          tx,
          Array.from({ length: 1200 }, (_, index) => ({
            orgId: 'acme',
            frameworkId: 'iso-42001',
            requirementId: control,
            type: index % 2 === 0 ? ('attestation' as const) : ('link' as const),
            title: `bulk ${index}`,
            fileUrl: index % 2 === 0 ? null : `https://example.com/${index}`,
            createdAt: new Date(base + Math.floor(index / 2) * 1000),
          })),
        ),
      );
    });

    const ids = async (query: string) => {
      const res = await t.request({ method: 'GET', url: `${base}/${control}/evidence?${query}` });
      expect(res.statusCode).toBe(200);
      return res.json().evidence.map((item: EvidenceItem) => item.evidenceId) as string[];
    };

    it('reads a page past the first few hundred rows in the same order as shallow pages', async () => {
      const shallow = await ids('offset=400&limit=200');
      expect(await ids('offset=500&limit=20')).toEqual(shallow.slice(100, 120));
      expect(await ids('offset=1190&limit=50')).toHaveLength(10);
      const links = await ids('type=link&offset=400&limit=200');
      expect(await ids('type=link&offset=520&limit=5')).toEqual(links.slice(120, 125));
    });
  });

  describe('lifecycle in the org controls', () => {
    const orgControl = async (controlId: string) =>
      (await t.request({ method: 'GET', url: `/api/v1/orgs/acme/controls/${controlId}` })).json();

    it('flags expired evidence, and a control whose evidence has all expired', async () => {
      const control = 'A.4.2';
      expect(await orgControl(control)).toMatchObject({
        evidenceCount: 0,
        evidenceExpired: false,
        evidence: [],
      });
      const old = await post(control, {
        type: 'attestation',
        title: 'last year',
        effectiveDate: '2020-01-01',
        expiresAt: '2021-01-01',
      });
      expect(old.json().expired).toBe(true);
      const list = await t.request({ method: 'GET', url: `${base}/${control}/evidence` });
      expect(list.json().evidence[0]).toMatchObject({ evidenceId: old.json().evidenceId, expired: true });
      expect(await orgControl(control)).toMatchObject({
        evidenceCount: 1,
        evidenceExpired: true,
        evidence: [{ evidenceId: old.json().evidenceId, expired: true }],
      });
      await post(control, { type: 'attestation', title: 'still valid', expiresAt: '2099-01-01' });
      expect(await orgControl(control)).toMatchObject({ evidenceCount: 2, evidenceExpired: false });
    });

    it('shows the latest three evidence items per control in the list', async () => {
      const control = 'A.4.3';
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        ids.push((await post(control, { type: 'attestation', title: `n${index}` })).json().evidenceId);
      }
      const res = await t.request({ method: 'GET', url: '/api/v1/orgs/acme/controls?domain=A.4' });
      const listed = res.json().controls.find((c: { controlId: string }) => c.controlId === control);
      expect(listed.evidenceCount).toBe(5);
      const newest = (await t.request({ method: 'GET', url: `${base}/${control}/evidence?limit=3` })).json();
      expect(listed.evidence.map((item: EvidenceItem) => item.evidenceId)).toEqual(
        newest.evidence.map((item: EvidenceItem) => item.evidenceId),
      );
      expect(listed.evidence[0]).toEqual({
        evidenceId: newest.evidence[0].evidenceId,
        type: 'attestation',
        title: newest.evidence[0].title,
        createdAt: newest.evidence[0].createdAt,
        expired: false,
      });
    });
  });
});
