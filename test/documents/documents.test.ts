import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from '../../src/features/documents/documents.service.js';
import { selectDocumentReviews } from '../../src/features/documents/documents.store.js';
import { addCadence, parseCadence } from '../../src/features/documents/review-cadence.js';
import { ADMIN_KEY, createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';
const PASSWORD = 'correct horse battery';
const MIB = 1_048_576;

const POLICY_REQUIREMENTS = [
  { frameworkId: 'iso-42001', requirementId: 'A.2.2' },
  { frameworkId: 'iso-42001-clauses', requirementId: '5.2' },
];

const sha256 = (value: unknown) =>
  createHash('sha256')
    .update(canonicalize(value) as string)
    .digest('hex');

/** `from` plus whole UTC calendar months, as the review cadence adds them. */
const plusMonths = (from: string, months: number) => {
  const date = new Date(from);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
};

describe('review cadence', () => {
  it('reads ISO 8601 durations of years, months, weeks and days, and refuses the rest', () => {
    expect(parseCadence('P1Y')).toEqual({ years: 1, months: 0, days: 0 });
    expect(parseCadence('P6M')).toEqual({ years: 0, months: 6, days: 0 });
    expect(parseCadence('P90D')).toEqual({ years: 0, months: 0, days: 90 });
    expect(parseCadence('P1Y6M2W3D')).toEqual({ years: 1, months: 6, days: 17 });
    for (const bad of ['P', '1Y', 'P0D', 'PT12H', 'P1.5Y', 'P-1M', 'P101Y', 'p1y', 'P1Y ', 'P1D1Y']) {
      expect(typeof parseCadence(bad), bad).toBe('string');
    }
  });

  it('adds on the UTC calendar, a day past the end of the month falling back to its last day', () => {
    const at = (iso: string, duration: string) => {
      const cadence = parseCadence(duration);
      if (typeof cadence === 'string') throw new Error(cadence);
      return addCadence(new Date(iso), cadence).toISOString();
    };
    expect(at('2026-01-31T10:00:00.000Z', 'P1M')).toBe('2026-02-28T10:00:00.000Z');
    expect(at('2028-01-31T10:00:00.000Z', 'P1M')).toBe('2028-02-29T10:00:00.000Z');
    expect(at('2028-02-29T00:00:00.000Z', 'P1Y')).toBe('2029-02-28T00:00:00.000Z');
    expect(at('2026-11-28T12:34:56.789Z', 'P1Y')).toBe('2027-11-28T12:34:56.789Z');
    expect(at('2026-12-15T00:00:00.000Z', 'P90D')).toBe('2027-03-15T00:00:00.000Z');
    expect(at('2026-10-31T00:00:00.000Z', 'P4M2W')).toBe('2027-03-14T00:00:00.000Z');
  });
});

describe.each(dbKinds)('documents on %s', (kind) => {
  let t: TestApp;
  let olivia: string; // owner
  let alex: string; // approver
  let eddie: string; // editor: writes, cannot approve
  let oliviaId: string;
  let alexId: string;
  let writer: string; // an API key with read and write
  let writerId: string;

  const as = (cookie: string) => ({ key: null, headers: { cookie, origin: ORIGIN } });
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  type Who = { key?: string | null; headers?: Record<string, string> };
  const createDocument = (body: unknown, who: Who = { key: writer }) =>
    t.request({ method: 'POST', url: `${ORG}/documents`, body, ...who });
  const newDocument = async (body: Record<string, unknown>) => {
    const res = await createDocument({ kind: 'policy', requirements: [], ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().documentId as string;
  };
  const draft = (documentId: string, body: unknown, who: Who = { key: writer }) =>
    t.request({ method: 'POST', url: `${ORG}/documents/${documentId}/versions`, body, ...who });
  const edit = (documentId: string, versionId: string, body: unknown, who: Who = { key: writer }) =>
    t.request({ method: 'PUT', url: `${ORG}/documents/${documentId}/versions/${versionId}`, body, ...who });
  const approve = (documentId: string, versionId: string, who: Who) =>
    t.request({
      method: 'POST',
      url: `${ORG}/documents/${documentId}/versions/${versionId}/approve`,
      ...who,
    });
  const putDocument = (documentId: string, body: unknown) =>
    t.request({ method: 'PUT', url: `${ORG}/documents/${documentId}`, body, key: writer });
  /** A draft written by the key and published by Alex. */
  const published = async (documentId: string, body: Record<string, unknown>) => {
    const started = await draft(documentId, { changelog: 'Issued', ...body });
    expect(started.statusCode, started.body).toBe(201);
    const res = await approve(documentId, started.json().versionId, as(alex));
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    oliviaId = await addMember(t, 'acme', {
      email: 'olivia@example.com',
      name: 'Olivia Officer',
      role: 'owner',
    });
    alexId = await addMember(t, 'acme', {
      email: 'alex@example.com',
      name: 'Alex Approver',
      role: 'approver',
    });
    await addMember(t, 'acme', { email: 'eddie@example.com', name: 'Eddie Editor', role: 'editor' });
    olivia = await signIn(t, 'olivia@example.com', PASSWORD);
    alex = await signIn(t, 'alex@example.com', PASSWORD);
    eddie = await signIn(t, 'eddie@example.com', PASSWORD);
    const created = await t.request({
      method: 'POST',
      url: `${ORG}/keys`,
      ...as(olivia),
      body: { scopes: ['read', 'write'], name: 'docs pipeline' },
    });
    expect(created.statusCode, created.body).toBe(201);
    ({ key: writer, keyId: writerId } = created.json());
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('documents', () => {
    it('creates a document with no version yet, and serves it', async () => {
      const res = await createDocument({
        title: 'AI policy',
        kind: 'policy',
        owner: 'CISO',
        requirements: POLICY_REQUIREMENTS,
        reviewEvery: 'P1Y',
      });
      expect(res.statusCode, res.body).toBe(201);
      const document = res.json();
      expect(document).toEqual({
        documentId: expect.stringMatching(/^doc_/),
        orgId: 'acme',
        title: 'AI policy',
        kind: 'policy',
        owner: 'CISO',
        requirements: POLICY_REQUIREMENTS,
        reviewEvery: 'P1Y',
        published: null,
        draft: null,
        nextReviewAt: null,
        reviewDue: false,
        createdBy: { type: 'key', id: writerId, name: 'docs pipeline' },
        createdAt: expect.any(String),
        updatedAt: document.createdAt,
      });
      expect(res.headers.location).toBe(`${ORG}/documents/${document.documentId}`);
      expect(await get(res.headers.location as string)).toEqual(document);
    });

    it('refuses requirements the library does not have (400 naming them), a bad cadence or kind', async () => {
      const unknown = await createDocument({
        title: 'x',
        kind: 'plan',
        requirements: [
          POLICY_REQUIREMENTS[0],
          { frameworkId: 'iso-42001', requirementId: 'A.99.9' },
          { frameworkId: 'no-such-framework', requirementId: '1' },
        ],
      });
      expect(unknown.statusCode).toBe(400);
      const { error } = unknown.json();
      expect(error.details.unknownRequirements).toEqual([
        { frameworkId: 'iso-42001', requirementId: 'A.99.9' },
        { frameworkId: 'no-such-framework', requirementId: '1' },
      ]);
      expect(error.message).toContain('A.99.9');
      expect(error.details.fields.map((f: { field: string }) => f.field)).toEqual([
        'body.requirements.1',
        'body.requirements.2',
      ]);
      for (const reviewEvery of ['1Y', 'P', 'P0D', 'PT12H', 'P1000Y', 'yearly']) {
        const res = await createDocument({ title: 'x', kind: 'plan', requirements: [], reviewEvery });
        expect(res.statusCode, reviewEvery).toBe(400);
        expect(res.json().error.details.fields[0].field, reviewEvery).toBe('body.reviewEvery');
      }
      expect((await createDocument({ title: 'x', kind: 'memo', requirements: [] })).statusCode).toBe(400);
      expect((await createDocument({ title: 'x', kind: 'plan' })).statusCode).toBe(400);
      expect(
        (
          await createDocument({
            title: 'x',
            kind: 'plan',
            requirements: [POLICY_REQUIREMENTS[0], POLICY_REQUIREMENTS[0]],
          })
        ).statusCode,
      ).toBe(400);
      const reader = await t.createKey('acme', ['read']);
      expect(
        (await createDocument({ title: 'x', kind: 'plan', requirements: [] }, { key: reader })).statusCode,
      ).toBe(403);
    });

    it('changes title, owner, requirements and cadence; null removes owner and cadence', async () => {
      const documentId = await newDocument({ title: 'Incident procedure', kind: 'procedure', owner: 'Ops' });
      let res = await putDocument(documentId, {
        title: 'AI incident procedure',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.8.4' }],
        reviewEvery: 'P6M',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        title: 'AI incident procedure',
        owner: 'Ops',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.8.4' }],
        reviewEvery: 'P6M',
        nextReviewAt: null,
      });
      res = await putDocument(documentId, { owner: null, reviewEvery: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ owner: null, reviewEvery: null, title: 'AI incident procedure' });
      expect((await putDocument(documentId, {})).statusCode).toBe(400);
      expect((await putDocument(documentId, { reviewEvery: 'P1H' })).statusCode).toBe(400);
      const unknown = await putDocument(documentId, {
        requirements: [{ frameworkId: 'gdpr', requirementId: 'Art. 999' }],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error.details.unknownRequirements).toEqual([
        { frameworkId: 'gdpr', requirementId: 'Art. 999' },
      ]);
      expect((await putDocument('doc-none', { title: 'x' })).statusCode).toBe(404);
    });

    it('deletes a document never published, with its draft; 404 after', async () => {
      const documentId = await newDocument({ title: 'Scratch plan', kind: 'plan' });
      expect((await draft(documentId, { content: '# Plan', changelog: 'first cut' })).statusCode).toBe(201);
      const res = await t.request({ method: 'DELETE', url: `${ORG}/documents/${documentId}`, key: writer });
      expect(res.statusCode, res.body).toBe(204);
      expect((await t.request({ method: 'GET', url: `${ORG}/documents/${documentId}` })).statusCode).toBe(
        404,
      );
      expect(
        (await t.request({ method: 'GET', url: `${ORG}/documents/${documentId}/versions` })).statusCode,
      ).toBe(404);
      expect((await t.request({ method: 'DELETE', url: `${ORG}/documents/${documentId}` })).statusCode).toBe(
        404,
      );
    });
  });

  describe('the lifecycle of a policy', () => {
    let documentId: string;
    let v1: string;
    let v2: string;
    const V1 = '# AI policy\n\nWe use AI responsibly.\n\n## Scope\n\nAll AI systems.\n';
    const V2 =
      '# AI policy\n\nWe use AI responsibly and lawfully.\n\n## Scope\n\nAll AI systems.\n\n## Roles\n\nThe CISO owns it.\n';

    beforeAll(async () => {
      documentId = await newDocument({
        title: 'Responsible AI policy',
        owner: 'CISO',
        requirements: POLICY_REQUIREMENTS,
        reviewEvery: 'P1Y',
      });
    });

    it('starts a draft, version 1, written by a person', async () => {
      const res = await draft(documentId, { content: V1, changelog: 'First issue' }, as(olivia));
      expect(res.statusCode, res.body).toBe(201);
      const version = res.json();
      expect(version).toMatchObject({
        versionId: expect.stringMatching(/^ver_/),
        documentId,
        version: 1,
        state: 'draft',
        content: V1,
        fileUrl: null,
        changelog: 'First issue',
        author: { type: 'user', id: oliviaId, name: 'Olivia Officer' },
        editors: [],
        contentHash: null,
        approvedBy: null,
        publishedAt: null,
        evidence: [],
        createdAt: expect.any(String),
      });
      v1 = version.versionId;
      expect(res.headers.location).toBe(`${ORG}/documents/${documentId}/versions/${v1}`);
      expect(await get(res.headers.location as string)).toEqual(version);
      const document = await get(`${ORG}/documents/${documentId}`);
      expect(document.published).toBeNull();
      expect(document.draft).toMatchObject({ versionId: v1, version: 1, state: 'draft' });
      expect(document.draft).not.toHaveProperty('content');
    });

    it('keeps one draft at a time (409 naming it) and refuses a malformed version with 400', async () => {
      const second = await draft(documentId, { content: 'x', changelog: 'again' });
      expect(second.statusCode).toBe(409);
      expect(second.json().error.details.draft).toEqual({ versionId: v1, version: 1 });
      const cases: [unknown, string][] = [
        [{ changelog: 'neither' }, 'neither'],
        [{ content: 'x', fileUrl: 'https://example.com/p.pdf', changelog: 'both' }, 'both'],
        [{ fileUrl: 'ftp://example.com/p.pdf', changelog: 'ftp' }, 'ftp'],
        [{ fileUrl: 'https://user:secret@example.com/p.pdf', changelog: 'userinfo' }, 'userinfo'],
        [{ fileUrl: 'not a url', changelog: 'not a url' }, 'not a url'],
        [{ content: 'x' }, 'no changelog'],
        [{ content: 'x', changelog: '' }, 'empty changelog'],
        [{ content: 'x\u0000y', changelog: 'nul' }, 'NUL'],
      ];
      const other = await newDocument({ title: 'Refusals' });
      for (const [body, what] of cases) {
        const res = await draft(other, body);
        expect(res.statusCode, what).toBe(400);
      }
      expect((await get(`${ORG}/documents/${other}/versions`)).versions).toEqual([]);
      expect((await draft('doc-none', { content: 'x', changelog: 'x' })).statusCode).toBe(404);
    });

    it('takes up to 1 MiB of UTF-8 content, not a byte more', async () => {
      const big = await newDocument({ title: 'Big record', kind: 'record' });
      const tooBig = await draft(big, { content: 'é'.repeat(MIB / 2 + 1), changelog: 'two bytes each' });
      expect(tooBig.statusCode).toBe(400);
      expect(tooBig.json().error.details.fields[0].field).toBe('body.content');
      const content = `${'line of the record\n'.repeat(MIB / 19)}`.padEnd(MIB, '.');
      expect(Buffer.byteLength(content)).toBe(MIB);
      const res = await draft(big, { content, changelog: 'exactly 1 MiB' });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
      expect((await get(`${ORG}/documents/${big}/versions/${res.json().versionId}`)).content).toBe(content);
    });

    it('edits a draft, recording who else changed it', async () => {
      const res = await edit(documentId, v1, { content: `${V1}\nDraft note.\n` }, as(eddie));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        content: `${V1}\nDraft note.\n`,
        changelog: 'First issue',
        editors: [{ type: 'user', name: 'Eddie Editor' }],
      });
      const back = await edit(
        documentId,
        v1,
        { content: V1, changelog: 'First issue of the policy' },
        as(eddie),
      );
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toMatchObject({ content: V1, changelog: 'First issue of the policy' });
      expect(back.json().editors).toHaveLength(1);
      expect((await edit(documentId, v1, {})).statusCode).toBe(400);
      expect(
        (await edit(documentId, v1, { content: 'a', fileUrl: 'https://example.com/a' })).statusCode,
      ).toBe(400);
      expect((await edit(documentId, 'ver-none', { content: 'a' })).statusCode).toBe(404);
    });

    it('is approved only by a second person: not a key, not an editor role, not its author', async () => {
      for (const key of [writer, ADMIN_KEY]) {
        const res = await approve(documentId, v1, { key });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.details.reason).toBe('person_required');
      }
      const editor = await approve(documentId, v1, as(eddie));
      expect(editor.statusCode).toBe(403);
      expect(editor.json().error.details.requiredScope).toBe('approve');
      const author = await approve(documentId, v1, as(olivia));
      expect(author.statusCode).toBe(403);
      expect(author.json().error.details.reason).toBe('second_person_required');
      expect((await get(`${ORG}/documents/${documentId}/versions/${v1}`)).state).toBe('draft');
    });

    it('publishes on approval: immutable under its content hash, with the next review a year on', async () => {
      const res = await approve(documentId, v1, as(alex));
      expect(res.statusCode, res.body).toBe(200);
      const version = res.json();
      expect(version).toMatchObject({
        versionId: v1,
        state: 'published',
        content: V1,
        approvedBy: { userId: alexId, email: 'alex@example.com', name: 'Alex Approver' },
        publishedAt: expect.any(String),
        supersededAt: null,
        supersededBy: null,
      });
      expect(version.contentHash).toBe(
        sha256({ documentId, version: 1, content: V1, changelog: 'First issue of the policy' }),
      );
      const document = await get(`${ORG}/documents/${documentId}`);
      expect(document.published).toMatchObject({
        versionId: v1,
        state: 'published',
        contentHash: version.contentHash,
      });
      expect(document.draft).toBeNull();
      expect(document.nextReviewAt).toBe(plusMonths(version.publishedAt, 12));
      expect(document.reviewDue).toBe(false);

      expect((await edit(documentId, v1, { content: 'changed' })).statusCode).toBe(409);
      expect((await approve(documentId, v1, as(olivia))).statusCode).toBe(409);
      expect((await t.request({ method: 'DELETE', url: `${ORG}/documents/${documentId}` })).statusCode).toBe(
        409,
      );
      expect(await get(`${ORG}/documents/${documentId}/versions/${v1}`)).toEqual(version);
    });

    it('becomes evidence, a document linking to the version, on each of its requirements', async () => {
      const version = await get(`${ORG}/documents/${documentId}/versions/${v1}`);
      expect(
        version.evidence.map(
          ({ frameworkId, requirementId }: { frameworkId: string; requirementId: string }) => ({
            frameworkId,
            requirementId,
          }),
        ),
      ).toEqual(POLICY_REQUIREMENTS);
      for (const { frameworkId, requirementId, evidenceId } of version.evidence) {
        const item = await get(
          `${ORG}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}/evidence/${evidenceId}`,
        );
        expect(item).toMatchObject({
          type: 'document',
          title: 'Responsible AI policy, version 1',
          fileUrl: `http://localhost:80${ORG}/documents/${documentId}/versions/${v1}`,
          createdBy: alexId,
          effectiveDate: version.publishedAt,
          expiresAt: null,
          expired: false,
        });
      }
      const control = await get(`${ORG}/controls/A.2.2/evidence`);
      expect(control.evidence.map((item: { evidenceId: string }) => item.evidenceId)).toContain(
        version.evidence[0].evidenceId,
      );
    });

    it('keeps the published version in force while the next is drafted', async () => {
      const res = await draft(documentId, { content: V2, changelog: 'Adds roles' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ version: 2, state: 'draft', author: { type: 'key', id: writerId } });
      v2 = res.json().versionId;
      const document = await get(`${ORG}/documents/${documentId}`);
      expect(document.published).toMatchObject({ versionId: v1, version: 1, state: 'published' });
      expect(document.draft).toMatchObject({ versionId: v2, version: 2, state: 'draft' });
      const list = await get(`${ORG}/documents?limit=200`);
      const listed = list.documents.find((d: { documentId: string }) => d.documentId === documentId);
      expect(listed.published.versionId).toBe(v1);
      expect(listed.draft.versionId).toBe(v2);
    });

    it('refuses approval by a person who edited a draft a key wrote', async () => {
      const edited = await edit(documentId, v2, { changelog: 'Adds roles and lawfulness' }, as(alex));
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json().editors).toEqual([{ type: 'user', id: alexId, name: 'Alex Approver' }]);
      const res = await approve(documentId, v2, as(alex));
      expect(res.statusCode).toBe(403);
      expect(res.json().error.details.reason).toBe('second_person_required');
    });

    it('publishes the next version; the one before is superseded and stays readable', async () => {
      const res = await approve(documentId, v2, as(olivia));
      expect(res.statusCode, res.body).toBe(200);
      const second = res.json();
      expect(second).toMatchObject({
        version: 2,
        state: 'published',
        approvedBy: { userId: oliviaId, name: 'Olivia Officer' },
      });
      expect(second.contentHash).toBe(
        sha256({ documentId, version: 2, content: V2, changelog: 'Adds roles and lawfulness' }),
      );
      const first = await get(`${ORG}/documents/${documentId}/versions/${v1}`);
      expect(first).toMatchObject({
        state: 'superseded',
        content: V1,
        supersededBy: v2,
        supersededAt: second.publishedAt,
        contentHash: sha256({ documentId, version: 1, content: V1, changelog: 'First issue of the policy' }),
      });
      const document = await get(`${ORG}/documents/${documentId}`);
      expect(document.published.versionId).toBe(v2);
      expect(document.draft).toBeNull();
      expect(document.nextReviewAt).toBe(plusMonths(second.publishedAt, 12));

      const versions = (await get(`${ORG}/documents/${documentId}/versions`)).versions;
      expect(versions.map((v: { versionId: string; state: string }) => [v.versionId, v.state])).toEqual([
        [v2, 'published'],
        [v1, 'superseded'],
      ]);
      for (const version of versions) expect(version).not.toHaveProperty('content');

      for (const { frameworkId, requirementId } of POLICY_REQUIREMENTS) {
        const evidence = await get(
          `${ORG}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}/evidence`,
        );
        const ours = evidence.evidence
          .filter((item: { fileUrl: string | null }) => item.fileUrl?.includes(documentId))
          .map((item: { fileUrl: string }) => item.fileUrl);
        expect(ours).toEqual([
          `http://localhost:80${ORG}/documents/${documentId}/versions/${v2}`,
          `http://localhost:80${ORG}/documents/${documentId}/versions/${v1}`,
        ]);
      }
      expect((await approve(documentId, v1, as(alex))).statusCode).toBe(409);
      expect((await edit(documentId, v1, { content: 'x' })).statusCode).toBe(409);
    });

    it('diffs two versions line by line', async () => {
      const diff = await get(`${ORG}/documents/${documentId}/versions/${v2}/diff?against=${v1}`);
      expect(diff).toMatchObject({
        orgId: 'acme',
        documentId,
        from: { versionId: v1, version: 1, state: 'superseded' },
        to: { versionId: v2, version: 2, state: 'published' },
      });
      const lines = diff.changes.flatMap((hunk: { lines: string[] }) => hunk.lines);
      expect(lines).toContain('-We use AI responsibly.');
      expect(lines).toContain('+We use AI responsibly and lawfully.');
      expect(lines).toContain('+## Roles');
      expect(lines).toContain(' ## Scope');
      expect(lines.filter((line: string) => line.startsWith('-'))).toEqual(['-We use AI responsibly.']);
      expect(diff.changes[0]).toMatchObject({ oldStart: 1, newStart: 1 });

      const back = await get(`${ORG}/documents/${documentId}/versions/${v1}/diff?against=${v2}`);
      expect(back.changes.flatMap((hunk: { lines: string[] }) => hunk.lines)).toContain(
        '+We use AI responsibly.',
      );
      expect((await get(`${ORG}/documents/${documentId}/versions/${v1}/diff?against=${v1}`)).changes).toEqual(
        [],
      );
      const missing = await t.request({
        method: 'GET',
        url: `${ORG}/documents/${documentId}/versions/${v1}/diff?against=ver-none`,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.details.versionId).toBe('ver-none');
      expect(
        (await t.request({ method: 'GET', url: `${ORG}/documents/${documentId}/versions/${v1}/diff` }))
          .statusCode,
      ).toBe(400);
    });

    it('moves the next review with the cadence, and is due for review once it passes', async () => {
      const publishedAt = (await get(`${ORG}/documents/${documentId}/versions/${v2}`)).publishedAt;
      let res = await putDocument(documentId, { reviewEvery: 'P6M' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().nextReviewAt).toBe(plusMonths(publishedAt, 6));
      res = await putDocument(documentId, { title: 'Responsible AI policy' });
      expect(res.json().nextReviewAt).toBe(plusMonths(publishedAt, 6));
      const later = new Date(Date.parse(plusMonths(publishedAt, 6)) + 1);
      expect((await getDocument(t.db.em(), 'acme', documentId, later)).reviewDue).toBe(true);
      res = await putDocument(documentId, { reviewEvery: null });
      expect(res.json()).toMatchObject({ reviewEvery: null, nextReviewAt: null, reviewDue: false });
      res = await putDocument(documentId, { reviewEvery: 'P1Y' });
      expect(res.json().nextReviewAt).toBe(plusMonths(publishedAt, 12));
    });

    it('makes the published version evidence on a requirement added later', async () => {
      const added = { frameworkId: 'eu-ai-act', requirementId: 'Art. 17' };
      const res = await putDocument(documentId, { requirements: [...POLICY_REQUIREMENTS, added] });
      expect(res.statusCode, res.body).toBe(200);
      const version = await get(`${ORG}/documents/${documentId}/versions/${v2}`);
      expect(version.evidence).toHaveLength(3);
      const item = version.evidence[2];
      expect(item).toMatchObject(added);
      const evidence = await get(
        `${ORG}/frameworks/eu-ai-act/requirements/${encodeURIComponent('Art. 17')}/evidence/${item.evidenceId}`,
      );
      expect(evidence.fileUrl).toBe(`http://localhost:80${ORG}/documents/${documentId}/versions/${v2}`);
      expect(version.contentHash).toBe(
        sha256({ documentId, version: 2, content: V2, changelog: 'Adds roles and lawfulness' }),
      );
    });

    it('records every change in the audit trail, without the content but with its hash', async () => {
      const log = await get(`${ORG}/audit-log?resourceType=document-version&limit=200`);
      const ofFirst = log.events.filter((event: { resource: { id: string } }) => event.resource.id === v1);
      expect(ofFirst.map((event: { action: string }) => event.action).reverse()[0]).toBe(
        'document-version.created',
      );
      for (const event of log.events) expect(event.changes ?? {}).not.toHaveProperty('content');
      const publication = ofFirst.find(
        (event: { changes?: { state?: { to: string } } }) => event.changes?.state?.to === 'published',
      );
      expect(publication.actor).toMatchObject({ type: 'user', id: alexId });
      expect(publication.changes.contentHash.to).toEqual(expect.any(String));
      const documents = await get(`${ORG}/audit-log?resourceType=document&limit=200`);
      expect(
        documents.events.some((event: { resource: { id: string } }) => event.resource.id === documentId),
      ).toBe(true);
      expect((await get(`${ORG}/audit-log/verify`)).valid).toBe(true);
    });
  });

  describe('other documents', () => {
    it('publishes a version kept as a file URL, hashed with it; no cadence → no next review', async () => {
      const documentId = await newDocument({
        title: 'AI system lifecycle procedure',
        kind: 'procedure',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.1.2' }],
      });
      const version = await published(documentId, {
        fileUrl: 'https://intranet.example.com/ai-lifecycle.pdf',
      });
      expect(version).toMatchObject({ state: 'published', content: null });
      expect(version.contentHash).toBe(
        sha256({
          documentId,
          version: 1,
          fileUrl: 'https://intranet.example.com/ai-lifecycle.pdf',
          changelog: 'Issued',
        }),
      );
      const document = await get(`${ORG}/documents/${documentId}`);
      expect(document).toMatchObject({ nextReviewAt: null, reviewDue: false });
      const next = await draft(documentId, { content: '# Lifecycle\n', changelog: 'Moved into comply' });
      const diff = await get(
        `${ORG}/documents/${documentId}/versions/${next.json().versionId}/diff?against=${version.versionId}`,
      );
      expect(diff.changes[0].lines).toEqual([
        '-https://intranet.example.com/ai-lifecycle.pdf',
        '+# Lifecycle',
      ]);
    });

    it('refuses a diff of versions too different to compare (400 diff_too_large)', async () => {
      const documentId = await newDocument({ title: 'Register', kind: 'record' });
      const lines = (prefix: string) =>
        Array.from({ length: 2_001 }, (_, i) => `${prefix} entry ${i}`).join('\n');
      const first = await published(documentId, { content: lines('old') });
      const next = await draft(documentId, { content: lines('new'), changelog: 'Rewritten' });
      expect(next.statusCode, next.body).toBe(201);
      const res = await t.request({
        method: 'GET',
        url: `${ORG}/documents/${documentId}/versions/${next.json().versionId}/diff?against=${first.versionId}`,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
      expect(res.json().error.details.reason).toBe('diff_too_large');
    });

    it('lists a page of documents, next review soonest first, filtered by kind and owner', async () => {
      const org = '/api/v1/orgs/listing';
      await t.createOrg('listing');
      const key = await t.createKey('listing', ['read', 'write']);
      await addMember(t, 'listing', { email: 'ana@example.com', name: 'Ana Approver', role: 'approver' });
      const ana = await signIn(t, 'ana@example.com', PASSWORD);
      const make = async (title: string, kind: string, owner: string, reviewEvery?: string) => {
        const res = await t.request({
          method: 'POST',
          url: `${org}/documents`,
          key,
          body: { title, kind, owner, requirements: [], ...(reviewEvery ? { reviewEvery } : {}) },
        });
        expect(res.statusCode, res.body).toBe(201);
        const { documentId } = res.json();
        if (reviewEvery) {
          const started = await t.request({
            method: 'POST',
            url: `${org}/documents/${documentId}/versions`,
            key,
            body: { content: title, changelog: 'Issued' },
          });
          const approved = await t.request({
            method: 'POST',
            url: `${org}/documents/${documentId}/versions/${started.json().versionId}/approve`,
            ...as(ana),
          });
          expect(approved.statusCode, approved.body).toBe(200);
        }
        return documentId as string;
      };
      const yearly = await make('Yearly policy', 'policy', 'CISO', 'P1Y');
      const quarterly = await make('Quarterly plan', 'plan', 'DPO', 'P3M');
      const unreviewed = await make('A record', 'record', 'CISO');
      const monthly = await make('Monthly procedure', 'procedure', 'CISO', 'P1M');
      const page = await get(`${org}/documents`);
      expect(page).toMatchObject({ orgId: 'listing', total: 4, limit: 50, offset: 0 });
      expect(page.documents.map((d: { documentId: string }) => d.documentId)).toEqual([
        monthly,
        quarterly,
        yearly,
        unreviewed,
      ]);
      const second = await get(`${org}/documents?limit=2&offset=2`);
      expect(second.documents.map((d: { documentId: string }) => d.documentId)).toEqual([yearly, unreviewed]);
      expect(second.total).toBe(4);
      const ciso = await get(`${org}/documents?owner=CISO`);
      expect(ciso.documents.map((d: { documentId: string }) => d.documentId)).toEqual([
        monthly,
        yearly,
        unreviewed,
      ]);
      const plans = await get(`${org}/documents?kind=plan`);
      expect(plans).toMatchObject({ total: 1, documents: [{ documentId: quarterly }] });
      // What the agenda reads: the documents with a next review, soonest first.
      const reviews = await selectDocumentReviews(t.db.em(), 'listing');
      expect(reviews.map((r) => r.documentId)).toEqual([monthly, quarterly, yearly]);
      expect(reviews[0]).toMatchObject({ title: 'Monthly procedure', kind: 'procedure', owner: 'CISO' });
      expect(reviews[0].nextReviewAt).toBe(page.documents[0].nextReviewAt);
      expect((await t.request({ method: 'GET', url: `${org}/documents?kind=memo` })).statusCode).toBe(400);
      // Another org's document is not found here.
      expect((await t.request({ method: 'GET', url: `${org}/documents/${yearly}` })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: `${ORG}/documents/${yearly}` })).statusCode).toBe(404);
    });
  });

  it('puts a published document’s next review on the agenda of what is due', async () => {
    const documentId = await newDocument({
      title: 'Model release procedure',
      kind: 'procedure',
      owner: 'Dana',
      reviewEvery: 'P6M',
    });
    await published(documentId, { content: '# Releases' });
    const { nextReviewAt } = await get(`${ORG}/documents/${documentId}`);
    const due = await get(`${ORG}/due?kind=document_review&owner=dana`);
    expect(due.items).toContainEqual(
      expect.objectContaining({
        kind: 'document_review',
        dueAt: nextReviewAt,
        owner: 'Dana',
        resource: { type: 'document', id: documentId },
        title: 'Review of the procedure "Model release procedure"',
      }),
    );
  });
});
