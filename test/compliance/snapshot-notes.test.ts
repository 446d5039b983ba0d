import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertSnapshot } from '../../src/features/compliance/snapshots.store.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const ORG = '/api/v1/orgs/notes';
const NOTE = 'Approved by the AI board on 3 March; minutes item 4.';
const NO_NOTES_SENTENCE = 'Notes recorded with statuses are not part of this statement';

/** The hash an auditor computes from the response alone: SHA-256 over RFC 8785 JSON without the hash. */
function auditorHash(snapshot: Record<string, unknown>): string {
  const { contentHash: _hash, ...content } = snapshot;
  return createHash('sha256')
    .update(canonicalize(content) as string)
    .digest('hex');
}

type Control = { controlId: string; note?: string | null } & Record<string, unknown>;
type Snapshot = {
  snapshotId: string;
  createdAt: string;
  score: number | null;
  counts: Parameters<typeof insertSnapshot>[1]['counts'];
  contentHash: string;
  controls: Control[];
} & Record<string, unknown>;
type SoaRow = { controlId: string; note: string | null };

describe.each(dbKinds)('the status notes a snapshot freezes (%s)', (kind) => {
  let t: TestApp;
  let snapshot: Snapshot;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('notes');
    const set = await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.2.2/status`,
      body: { status: 'implemented', reviewer: 'alice', note: NOTE },
    });
    expect(set.statusCode).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: `${ORG}/compliance/snapshot`,
      body: { label: 'With notes' },
    });
    expect(created.statusCode).toBe(201);
    snapshot = created.json();
  });
  afterAll(() => t?.close());

  it('keeps the note of each control, under the hash', async () => {
    const byId = new Map(snapshot.controls.map((control) => [control.controlId, control]));
    expect(byId.get('A.2.2')?.note).toBe(NOTE);
    expect(byId.get('A.2.3')).toHaveProperty('note', null);
    expect(snapshot.contentHash).toBe(auditorHash(snapshot));
    // The note changes afterwards; the snapshot does not.
    await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.2.2/status`,
      body: { status: 'implemented', reviewer: 'alice', note: 'rewritten later' },
    });
    const shown = await t.request({
      method: 'GET',
      url: `${ORG}/compliance/snapshots/${snapshot.snapshotId}`,
    });
    expect(shown.json()).toEqual(snapshot);
    const verified = await t.request({
      method: 'GET',
      url: `${ORG}/compliance/snapshots/${snapshot.snapshotId}/verify`,
    });
    expect(verified.json()).toMatchObject({ valid: true, computedHash: snapshot.contentHash });
  });

  it('fills the Note column of a statement built from it, without saying notes are missing', async () => {
    const url = `${ORG}/export/soa?snapshotId=${snapshot.snapshotId}`;
    const statement = (await t.request({ method: 'GET', url })).json();
    expect(statement.controls.find((row: SoaRow) => row.controlId === 'A.2.2').note).toBe(NOTE);
    expect(statement.notes.join(' ')).not.toContain(NO_NOTES_SENTENCE);
    const markdown = (await t.request({ method: 'GET', url: `${url}&format=markdown` })).body;
    expect(markdown).toContain(NOTE);
    expect(markdown).not.toContain(NO_NOTES_SENTENCE);
  });

  it('still verifies a snapshot taken before notes were frozen, whose statement says it has none', async () => {
    // The content a snapshot held before controls carried `note`, hashed as it was then.
    const { contentHash: _hash, ...current } = snapshot;
    const old = {
      ...current,
      snapshotId: '00000000-0000-4000-8000-000000000001',
      label: 'Before notes',
      controls: snapshot.controls.map(({ note: _note, ...control }) => control),
    };
    const oldHash = auditorHash(old);
    await insertSnapshot(t.db.em(), {
      snapshotId: old.snapshotId,
      orgId: 'notes',
      label: old.label,
      notes: null,
      createdAt: new Date(old.createdAt),
      createdBy: null,
      score: old.score,
      counts: old.counts,
      content: old,
      contentHash: oldHash,
    });
    const verified = await t.request({
      method: 'GET',
      url: `${ORG}/compliance/snapshots/${old.snapshotId}/verify`,
    });
    expect(verified.json()).toEqual({
      snapshotId: old.snapshotId,
      contentHash: oldHash,
      computedHash: oldHash,
      valid: true,
    });
    const shown = (
      await t.request({ method: 'GET', url: `${ORG}/compliance/snapshots/${old.snapshotId}` })
    ).json();
    expect(shown.controls.find((control: Control) => control.controlId === 'A.2.2')).not.toHaveProperty(
      'note',
    );
    expect(auditorHash(shown)).toBe(oldHash);
    const statement = (
      await t.request({ method: 'GET', url: `${ORG}/export/soa?snapshotId=${old.snapshotId}` })
    ).json();
    expect(statement.controls.find((row: SoaRow) => row.controlId === 'A.2.2').note).toBeNull();
    expect(statement.notes).toContainEqual(expect.stringContaining(NO_NOTES_SENTENCE));
  });
});
