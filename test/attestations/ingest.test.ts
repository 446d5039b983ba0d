import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttestationIngest } from '../../src/features/attestations/attestations.ingest.js';
import { readRecords } from '../../src/records/records.store.js';
import { ISO_42001 } from '../../src/shared/vocabulary.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import {
  attestation,
  type Body,
  contentHash,
  newSidecarKey,
  signed,
  type TestSidecarKey,
} from './helpers.js';

const ORG = 'ingest-org';
const URL = `/api/v1/orgs/${ORG}/attestations`;

describe.each(dbKinds)('attestation ingestion on %s', (kind) => {
  let t: TestApp;
  let attestKey: string;
  let sidecar: TestSidecarKey;

  const post = (body: Body | string, key: string | null = attestKey) =>
    t.request({ method: 'POST', url: URL, body, key, headers: { 'content-type': 'application/json' } });
  const rowCount = async (attestationId: string) => {
    const [row] = await t.db
      .em()
      .execute<{ n: number }[]>(
        'select count(*)::int as n from attestations where org_id = ? and attestation_id = ?',
        [ORG, attestationId],
      );
    return row.n;
  };
  const evidenceOf = (attestationId: string) =>
    t.db
      .em()
      .execute<{ control_id: string; type: string; effective_date: Date | string }[]>(
        'select requirement_id as control_id, type, effective_date from evidence where org_id = ? and attestation_id = ? order by requirement_id',
        [ORG, attestationId],
      );
  // The record's roll-up as its owner reads it: the columns plus the pieces not yet folded in.
  const evidenceCount = async (controlId: string) => {
    const records = await readRecords(t.db.em(), ORG, ISO_42001);
    return records.find((record) => record.requirementId === controlId)?.evidenceCount ?? 0;
  };
  const registerKey = async (key: TestSidecarKey) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: key.publicPem, keyId: key.keyId },
    });
    expect(res.statusCode).toBe(201);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    await t.createOrg('elsewhere');
    attestKey = await t.createKey(ORG, ['attest']);
    sidecar = newSidecarKey('sidecar-1');
    await registerKey(sidecar);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a valid L2 attestation with its evidence, then serves it', async () => {
    const body = signed(attestation({ controlIds: ['A.6.2.6', 'A.6.2.8'] }), sidecar);
    const before = await evidenceCount('A.6.2.8');
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(`${URL}/${body.attestationId}`);
    const record = res.json();
    expect(record).toMatchObject({
      attestationId: body.attestationId,
      level: 'L2',
      epochId: 'epoch-1',
      systemId: null,
      controlIds: ['A.6.2.6', 'A.6.2.8'],
      timestamp: body.timestamp,
      claims: body.claims,
      signature: body.signature,
      contentHash: contentHash(body),
      serverAssignedId: false,
    });
    expect(Date.parse(record.receivedAt)).not.toBeNaN();

    const fetched = await t.request({ method: 'GET', url: `${URL}/${body.attestationId}` });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(record);

    const evidence = await evidenceOf(body.attestationId as string);
    expect(evidence.map((row) => [row.control_id, row.type])).toEqual([
      ['A.6.2.6', 'attestation'],
      ['A.6.2.8', 'attestation'],
    ]);
    expect(new Date(evidence[0].effective_date).toISOString()).toBe(body.timestamp);
    expect(await evidenceCount('A.6.2.8')).toBe(before + 1);
  });

  it('stores an L0 self-report, with a server-assigned id when none is given', async () => {
    const { attestationId: _omitted, ...body } = attestation({ level: 'L0', systemId: undefined });
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({ level: 'L0', signature: null, systemId: null, serverAssignedId: true });
    expect(record.attestationId).toMatch(/^[0-9a-f-]{36}$/);
    // The hash covers the body exactly as posted: without an id.
    expect(record.contentHash).toBe(contentHash(body));
    expect(await rowCount(record.attestationId)).toBe(1);
  });

  it.each([
    ['tampered body', (body: Body) => ({ ...body, claims: { model: 'm-2' } }), 'invalid_signature'],
    [
      'wrong key',
      (body: Body) => signed(body, { keyId: 'sidecar-1', privateKey: newSidecarKey('other').privateKey }),
      'invalid_signature',
    ],
    [
      'unknown key',
      (body: Body) => signed(body, { ...newSidecarKey('other'), keyId: 'never-registered' }),
      'unknown_key',
    ],
    ['missing signature', (body: Body) => ({ ...body, signature: undefined }), 'missing_signature'],
    [
      'malformed signature',
      (body: Body) => ({ ...body, signature: { alg: 'Ed25519', keyId: 'sidecar-1', value: 'AAAA' } }),
      'malformed_signature',
    ],
    [
      'another algorithm',
      (body: Body) => ({ ...body, signature: { ...(body.signature as object), alg: 'RS256' } }),
      'unsupported_algorithm',
    ],
    ['signed L0', (body: Body) => signed({ ...body, level: 'L0' }, sidecar), 'unexpected_signature'],
  ] as [string, (body: Body) => Body, string][])(
    'refuses a %s with 400 and stores nothing',
    async (_name, spoil, reason) => {
      const body = spoil(signed(attestation(), sidecar));
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'BAD_REQUEST', details: { reason } });
      expect(await rowCount(body.attestationId as string)).toBe(0);
      expect(await evidenceOf(body.attestationId as string)).toEqual([]);
    },
  );

  it('refuses signatures by a revoked key, and keys of another org', async () => {
    const key = newSidecarKey('short-lived');
    await registerKey(key);
    expect((await post(signed(attestation(), key))).statusCode).toBe(201);
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/orgs/${ORG}/sidecar-keys/short-lived` })).statusCode,
    ).toBe(204);
    const body = signed(attestation(), key);
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toMatchObject({
      reason: 'revoked_key',
      keyId: 'short-lived',
      fields: [expect.objectContaining({ field: 'body.signature' })],
    });
    expect(await rowCount(body.attestationId as string)).toBe(0);

    const foreign = newSidecarKey('foreign');
    await t.request({
      method: 'POST',
      url: '/api/v1/orgs/elsewhere/sidecar-keys',
      body: { publicKey: foreign.publicPem, keyId: 'foreign' },
    });
    const crossOrg = await post(signed(attestation(), foreign));
    expect(crossOrg.json().error.details.reason).toBe('unknown_key');
  });

  it('answers a replay with the stored record and a changed replay with 409', async () => {
    const body = signed(attestation({ controlIds: ['A.6.2.6'] }), sidecar);
    const first = await post(body);
    expect(first.statusCode).toBe(201);
    const evidenceBefore = await evidenceCount('A.6.2.6');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const replay = await post(body);
      expect(replay.statusCode).toBe(200);
      expect(replay.json()).toEqual(first.json());
    }
    const changed = await post(signed({ ...body, claims: { model: 'm-9' } }, sidecar));
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error).toMatchObject({
      code: 'CONFLICT',
      details: { attestationId: body.attestationId, storedContentHash: contentHash(body) },
    });
    expect(await rowCount(body.attestationId as string)).toBe(1);
    expect(await evidenceOf(body.attestationId as string)).toHaveLength(1);
    expect(await evidenceCount('A.6.2.6')).toBe(evidenceBefore);
    const stored = await t.request({ method: 'GET', url: `${URL}/${body.attestationId}` });
    expect(stored.json().claims).toEqual(body.claims);
  });

  it('stores concurrent duplicates once', async () => {
    const body = signed(attestation({ controlIds: ['A.6.2.6', 'A.7.2'] }), sidecar);
    const responses = await Promise.all(Array.from({ length: 24 }, () => post(body)));
    const codes = responses.map((res) => res.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(1);
    expect(codes.filter((code) => code === 200)).toHaveLength(23);
    expect(new Set(responses.map((res) => res.json().receivedAt)).size).toBe(1);
    expect(await rowCount(body.attestationId as string)).toBe(1);
    expect(await evidenceOf(body.attestationId as string)).toHaveLength(2);
  });

  it('stores concurrent duplicates once across separate writers and transactions', async () => {
    // Two writers with one row per transaction: the unique key, not the batcher, must settle the race.
    const writers = [0, 1].map(() => new AttestationIngest(t.db, { maxBatchItems: 1, maxInFlight: 4 }));
    const base = signed(attestation(), sidecar);
    const rival = signed({ ...base, claims: { rival: true } }, sidecar);
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, index) =>
        writers[index % 2].ingest(ORG, (index % 4 === 3 ? rival : base) as never, null),
      ),
    );
    await Promise.all(writers.map((writer) => writer.close()));
    const created = results.filter((result) => result.status === 'fulfilled' && result.value.created);
    expect(created).toHaveLength(1);
    const winner = (created[0] as PromiseFulfilledResult<{ record: { contentHash: string } }>).value.record
      .contentHash;
    for (const [index, result] of results.entries()) {
      const mine = contentHash(index % 4 === 3 ? rival : base);
      if (mine === winner) expect(result.status).toBe('fulfilled');
      else expect(result.status === 'rejected' && (result.reason as { code: string }).code).toBe('CONFLICT');
    }
    expect(await rowCount(base.attestationId as string)).toBe(1);
    expect(await evidenceOf(base.attestationId as string)).toHaveLength(1);
  });

  it('coalesces concurrent writes into one transaction', async () => {
    const writer = new AttestationIngest(t.db);
    const bodies = Array.from({ length: 20 }, () => attestation({ level: 'L0' }));
    const results = await Promise.all(bodies.map((body) => writer.ingest(ORG, body as never, null)));
    await writer.close();
    expect(results.every((result) => result.created)).toBe(true);
    // One batch, one commit, one reception time.
    expect(new Set(results.map((result) => result.record.receivedAt)).size).toBe(1);
  });

  it('keeps a failing row from failing the rest of its batch', async () => {
    const writer = new AttestationIngest(t.db, { maxInFlight: 1 });
    const good = [attestation({ level: 'L0' }), attestation({ level: 'L0' })];
    // No such org: its row breaks the foreign key, and with it the batch's first attempt.
    const results = await Promise.allSettled([
      writer.ingest(ORG, good[0] as never, null),
      writer.ingest('ghost-org', attestation({ level: 'L0' }) as never, null),
      writer.ingest(ORG, good[1] as never, null),
    ]);
    await writer.close();
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    for (const body of good) expect(await rowCount(body.attestationId as string)).toBe(1);
  });

  it('refuses unknown controls by name and stores nothing', async () => {
    const body = signed(attestation({ controlIds: ['A.6.2.6', 'A.99', 'B.1'] }), sidecar);
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toMatchObject({
      unknownControlIds: ['A.99', 'B.1'],
      fields: [expect.objectContaining({ field: 'body.controlIds' })],
    });
    expect(res.json().error.message).toContain('A.99');
    expect(await rowCount(body.attestationId as string)).toBe(0);
  });

  it.each([
    ['a timestamp without milliseconds', { timestamp: '2026-11-22T10:00:00Z' }],
    ['a timestamp with an offset', { timestamp: '2026-11-22T10:00:00.000+01:00' }],
    ['an impossible date', { timestamp: '2026-13-40T10:00:00.000Z' }],
    ['an unknown level', { level: 'L1' }],
    ['no controls', { controlIds: [] }],
    ['repeated controls', { controlIds: ['A.6.2.6', 'A.6.2.6'] }],
    ['claims that are not an object', { claims: ['x'] }],
    ['an unknown member', { extra: 1 }],
    ['a null systemId', { systemId: null }],
    ['a bad attestationId', { attestationId: 'has spaces' }],
  ])('answers 400 for %s', async (_name, overrides) => {
    const res = await post({ ...attestation({ level: 'L0' }), ...overrides });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
  });

  it('answers 400 for malformed JSON and for claims JSON cannot carry faithfully', async () => {
    expect((await post('{"level": "L0",')).statusCode).toBe(400);
    const lone = JSON.stringify(attestation({ level: 'L0' })).replace('"m-1"', '"\\ud800"');
    const res = await post(lone);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields).toEqual([
      expect.objectContaining({ field: 'body.claims.model' }),
    ]);
  });

  it('lets an attest key post and nothing else', async () => {
    const read = await t.createKey(ORG, ['read']);
    const write = await t.createKey(ORG, ['write']);
    const body = attestation({ level: 'L0' });
    expect((await post(body)).statusCode).toBe(201);
    for (const url of [
      URL,
      `${URL}/${body.attestationId}`,
      `${URL}/epochs/epoch-1`,
      `/api/v1/orgs/${ORG}/controls`,
      `/api/v1/orgs/${ORG}`,
    ]) {
      const res = await t.request({ method: 'GET', url, key: attestKey });
      expect(res.statusCode, url).toBe(403);
    }
    const sidecarKey = newSidecarKey('nope');
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api/v1/orgs/${ORG}/sidecar-keys`,
          key: attestKey,
          body: { publicKey: sidecarKey.publicPem },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `/api/v1/orgs/${ORG}/controls/A.6.2.6/status`,
          key: attestKey,
          body: { status: 'implemented', reviewer: 'x' },
        })
      ).statusCode,
    ).toBe(403);
    expect((await post(attestation({ level: 'L0' }), write)).statusCode).toBe(403);
    expect((await post(attestation({ level: 'L0' }), read)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: URL, key: read })).statusCode).toBe(200);
    expect((await post(attestation({ level: 'L0' }), null)).statusCode).toBe(401);
    const otherOrg = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/elsewhere/attestations',
      key: attestKey,
      body: attestation({ level: 'L0' }),
    });
    expect(otherOrg.statusCode).toBe(403);
  });

  it('answers 404 for an unknown org and an unknown attestation', async () => {
    const org = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/nowhere/attestations',
      body: attestation({ level: 'L0' }),
    });
    expect(org.statusCode).toBe(404);
    const missing = await t.request({ method: 'GET', url: `${URL}/no-such-id` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Attestation not found',
      details: { attestationId: 'no-such-id' },
    });
  });
});
