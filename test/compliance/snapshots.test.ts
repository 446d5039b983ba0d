import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const org = '/api/v1/orgs/snap';

/** The hash an auditor computes from the response alone: SHA-256 over RFC 8785 JSON without the hash. */
function auditorHash(snapshot: Record<string, unknown>): string {
  const { contentHash: _hash, ...content } = snapshot;
  return createHash('sha256')
    .update(canonicalize(content) as string)
    .digest('hex');
}

describe.each(dbKinds)('compliance score and snapshots on %s', (kind) => {
  let t: TestApp;
  const evidenceIds: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('snap');
    await t.createOrg('other');
    const put = (controlId: string, path: string, body: unknown) =>
      t.request({ method: 'PUT', url: `${org}/controls/${controlId}/${path}`, body });
    // A.2: 2 implemented + 1 in progress of 3 → 83.3; A.3.2 excluded.
    for (const [controlId, status] of [
      ['A.2.2', 'implemented'],
      ['A.2.3', 'implemented'],
      ['A.2.4', 'in_progress'],
      ['A.3.3', 'implemented'],
    ]) {
      expect((await put(controlId, 'status', { status, reviewer: 'alice' })).statusCode).toBe(200);
    }
    const excluded = await put('A.3.2', 'applicability', {
      applicable: false,
      justification: 'not relevant',
      reviewer: 'bob',
    });
    expect(excluded.statusCode).toBe(200);
    for (const title of ['policy', 'minutes']) {
      const res = await t.request({
        method: 'POST',
        url: `${org}/controls/A.2.2/evidence`,
        body: { type: 'link', title, fileUrl: `https://example.com/${title}` },
      });
      evidenceIds.push(res.json().evidenceId);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('score', () => {
    it('follows the formula overall and per domain', async () => {
      const res = await t.request({ method: 'GET', url: `${org}/compliance` });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      // (3 + 0.5) / 37 applicable = 9.46 → 9.5
      expect(body).toMatchObject({
        orgId: 'snap',
        score: 9.5,
        counts: { implemented: 3, inProgress: 1, notStarted: 33, notApplicable: 1 },
      });
      expect(Date.parse(body.computedAt)).not.toBeNaN();
      expect(body.byDomain).toHaveLength(9);
      const a2 = body.byDomain.find((d: { domain: string }) => d.domain === 'A.2');
      expect(a2).toMatchObject({ score: 83.3, controlCount: 3, counts: { implemented: 2, inProgress: 1 } });
      const a3 = body.byDomain.find((d: { domain: string }) => d.domain === 'A.3');
      // A.3 has 2 controls: one implemented, one excluded → 100
      expect(a3).toMatchObject({ score: 100, controlCount: 2, counts: { implemented: 1, notApplicable: 1 } });
    });

    it('is 0 for a new org, 404 for an unknown one, 401 without a key', async () => {
      expect((await t.request({ method: 'GET', url: '/api/v1/orgs/other/compliance' })).json().score).toBe(0);
      const missing = await t.request({ method: 'GET', url: '/api/v1/orgs/nope/compliance' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { orgId: 'nope' } });
      expect((await t.request({ method: 'GET', url: `${org}/compliance`, key: null })).statusCode).toBe(401);
    });
  });

  describe('snapshots', () => {
    let created: Record<string, unknown> & { snapshotId: string; contentHash: string };

    it('freezes every control and evidence reference under a label, with a verifiable hash', async () => {
      const res = await t.request({
        method: 'POST',
        url: `${org}/compliance/snapshot`,
        body: { label: 'Q1 audit', notes: 'before the external audit' },
      });
      expect(res.statusCode).toBe(201);
      created = res.json();
      expect(res.headers.location).toBe(`${org}/compliance/snapshots/${created.snapshotId}`);
      expect(created).toMatchObject({
        orgId: 'snap',
        label: 'Q1 audit',
        notes: 'before the external audit',
        score: 9.5,
        counts: { implemented: 3, inProgress: 1, notStarted: 33, notApplicable: 1 },
      });
      const controls = created.controls as { controlId: string; evidence: { evidenceId: string }[] }[];
      expect(controls).toHaveLength(38);
      const a22 = controls.find((c) => c.controlId === 'A.2.2');
      expect(a22).toMatchObject({
        status: 'implemented',
        applicable: true,
        evidenceCount: 2,
        reviewer: 'alice',
      });
      expect(a22?.evidence.map((e) => e.evidenceId).sort()).toEqual([...evidenceIds].sort());
      expect(controls.find((c) => c.controlId === 'A.3.2')).toMatchObject({
        applicable: false,
        justification: 'not relevant',
      });
      expect(created.contentHash).toBe(auditorHash(created));
    });

    it('lists, shows and verifies it', async () => {
      const list = await t.request({ method: 'GET', url: `${org}/compliance/snapshots` });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject({ orgId: 'snap', total: 1, limit: 50, offset: 0 });
      expect(list.json().snapshots[0]).toEqual({
        snapshotId: created.snapshotId,
        label: 'Q1 audit',
        notes: 'before the external audit',
        createdAt: created.createdAt,
        score: 9.5,
        counts: created.counts,
        contentHash: created.contentHash,
      });
      const shown = await t.request({
        method: 'GET',
        url: `${org}/compliance/snapshots/${created.snapshotId}`,
      });
      expect(shown.json()).toEqual(created);
      const verified = await t.request({
        method: 'GET',
        url: `${org}/compliance/snapshots/${created.snapshotId}/verify`,
      });
      expect(verified.json()).toEqual({
        snapshotId: created.snapshotId,
        contentHash: created.contentHash,
        computedHash: created.contentHash,
        valid: true,
      });
    });

    it('does not move when the org changes afterwards', async () => {
      await t.request({
        method: 'PUT',
        url: `${org}/controls/A.2.4/status`,
        body: { status: 'implemented', reviewer: 'alice' },
      });
      await t.request({
        method: 'POST',
        url: `${org}/controls/A.2.2/evidence`,
        body: { type: 'attestation', title: 'later' },
      });
      const shown = await t.request({
        method: 'GET',
        url: `${org}/compliance/snapshots/${created.snapshotId}`,
      });
      expect(shown.json()).toEqual(created);
      const second = await t.request({
        method: 'POST',
        url: `${org}/compliance/snapshot`,
        body: { label: 'Q2 audit' },
      });
      expect(second.json()).toMatchObject({ score: 10.8, notes: null });
      const list = (await t.request({ method: 'GET', url: `${org}/compliance/snapshots?limit=1` })).json();
      expect(list).toMatchObject({ total: 2, limit: 1 });
      expect(list.snapshots.map((s: { label: string }) => s.label)).toEqual(['Q2 audit']);
    });

    it('refuses a duplicate label in the same org with 409, but not in another org', async () => {
      const dup = await t.request({
        method: 'POST',
        url: `${org}/compliance/snapshot`,
        body: { label: 'Q1 audit' },
      });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().error).toMatchObject({ code: 'CONFLICT', details: { label: 'Q1 audit' } });
      const elsewhere = await t.request({
        method: 'POST',
        url: '/api/v1/orgs/other/compliance/snapshot',
        body: { label: 'Q1 audit' },
      });
      expect(elsewhere.statusCode).toBe(201);
    });

    it('has no route to change or delete a snapshot', async () => {
      for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
        const res = await t.request({
          method,
          url: `${org}/compliance/snapshots/${created.snapshotId}`,
          body: method === 'DELETE' ? undefined : { label: 'edited' },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
    });

    it('is immutable in the database itself', async () => {
      const em = t.db.em();
      await expect(
        em.execute(`update compliance_snapshots set label = 'edited' where snapshot_id = ?`, [
          created.snapshotId,
        ]),
      ).rejects.toThrow(/immutable/);
      await expect(
        em.execute('delete from compliance_snapshots where snapshot_id = ?', [created.snapshotId]),
      ).rejects.toThrow(/immutable/);
    });

    it('detects content altered behind the trigger’s back', async () => {
      const em = t.db.em();
      await em.execute('alter table compliance_snapshots disable trigger compliance_snapshots_immutable');
      try {
        await em.execute(
          `update compliance_snapshots set content = jsonb_set(content, '{score}', '99.9') where snapshot_id = ?`,
          [created.snapshotId],
        );
      } finally {
        await em.execute('alter table compliance_snapshots enable trigger compliance_snapshots_immutable');
      }
      const verified = await t.request({
        method: 'GET',
        url: `${org}/compliance/snapshots/${created.snapshotId}/verify`,
      });
      expect(verified.json()).toMatchObject({ contentHash: created.contentHash, valid: false });
      expect(verified.json().computedHash).not.toBe(created.contentHash);
    });

    it.each([
      ['no label', {}],
      ['an empty label', { label: '' }],
      ['a label with NUL', { label: 'a\u0000' }],
      ['a label too long', { label: 'x'.repeat(201) }],
      ['notes of the wrong type', { label: 'ok', notes: 5 }],
      ['an unknown member', { label: 'ok', scope: 'all' }],
    ])('rejects %s with 400', async (_case, body) => {
      const res = await t.request({ method: 'POST', url: `${org}/compliance/snapshot`, body });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
    });

    it('answers unknown snapshots with RESOURCE_NOT_FOUND and enforces scopes', async () => {
      const missing = await t.request({ method: 'GET', url: `${org}/compliance/snapshots/nope` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Snapshot not found',
        details: { snapshotId: 'nope' },
      });
      const reader = await t.createKey('snap', ['read']);
      const denied = await t.request({
        method: 'POST',
        url: `${org}/compliance/snapshot`,
        body: { label: 'by a reader' },
        key: reader,
      });
      expect(denied.statusCode).toBe(403);
      const read = await t.request({ method: 'GET', url: `${org}/compliance/snapshots`, key: reader });
      expect(read.statusCode).toBe(200);
      const foreign = await t.request({
        method: 'GET',
        url: `/api/v1/orgs/other/compliance/snapshots/${created.snapshotId}`,
      });
      expect(foreign.statusCode).toBe(404);
      const bad = await t.request({ method: 'GET', url: `${org}/compliance/snapshots?limit=0` });
      expect(bad.statusCode).toBe(400);
    });
  });
});
