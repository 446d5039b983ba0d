import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { attestation, type Body, contentHash, merkleTreeHash, newSidecarKey, signed } from './helpers.js';

const ORG = 'epochs-org';
const URL = `/api/v1/orgs/${ORG}/attestations`;
const EPOCH = 'closed';
const base = Date.UTC(2026, 10, 22);
const sidecar = newSidecarKey('epochs-sidecar');

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const merkleOrder = (a: Body, b: Body) =>
  byteOrder(a.timestamp as string, b.timestamp as string) ||
  byteOrder(a.attestationId as string, b.attestationId as string);

/** The summary an auditor computes from the records, from the contract. */
function expected(members: Body[]) {
  const sorted = [...members].sort(merkleOrder);
  return {
    orgId: ORG,
    epochId: EPOCH,
    count: sorted.length,
    levels: {
      L0: sorted.filter((body) => body.level === 'L0').length,
      L2: sorted.filter((body) => body.level === 'L2').length,
    },
    firstTimestamp: sorted[0].timestamp,
    lastTimestamp: sorted.at(-1)?.timestamp,
    merkleRoot: merkleTreeHash(sorted.map((body) => Buffer.from(contentHash(body), 'hex'))).toString('hex'),
  };
}

describe.each(dbKinds)('epoch summaries kept between reads on %s', (kind) => {
  let t: TestApp;
  /** A second daemon on the same database, with its own memory. */
  let other: FastifyInstance;
  let otherDb: Database | null = null;
  let otherJobs: InProcessJobRunner;
  const members: Body[] = [];

  const read = async (app: FastifyInstance) => {
    const res = await app.inject({
      method: 'GET',
      url: `${URL}/epochs/${EPOCH}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const post = async (app: FastifyInstance, body: Body) => {
    const res = await app.inject({
      method: 'POST',
      url: URL,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    members.push(body);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    // PGlite is embedded: the second app shares the same database object; PostgreSQL gets its own pool.
    const db = kind === 'postgres' ? await openDatabase(t.config) : t.db;
    if (kind === 'postgres') otherDb = db;
    otherJobs = new InProcessJobRunner(db, pino({ level: 'silent' }));
    other = await buildApp({ config: t.config, db, jobs: otherJobs });
    await other.ready();
    for (let index = 0; index < 30; index += 1) {
      await post(
        t.app,
        attestation({
          attestationId: `c-${String((index * 11) % 30).padStart(2, '0')}`,
          level: 'L0',
          epochId: EPOCH,
          timestamp: new Date(base + Math.floor(index / 3) * 60_000).toISOString(),
          claims: { index },
        }),
      );
    }
  });
  afterAll(async () => {
    await other?.close();
    await otherJobs?.close();
    await otherDb?.close();
    await t?.close();
  });

  it('answers the same summary on later reads', async () => {
    const first = await read(t.app);
    expect(first).toMatchObject(expected(members));
    expect(await read(t.app)).toEqual(first);
  });

  it('is exact after a late attestation joins the middle of the epoch through another daemon', async () => {
    const before = await read(t.app);
    await post(
      other,
      attestation({
        attestationId: 'c-late-middle',
        level: 'L0',
        epochId: EPOCH,
        timestamp: new Date(base + 4 * 60_000).toISOString(),
      }),
    );
    const after = await read(t.app);
    expect(after).toMatchObject(expected(members));
    expect(after.merkleRoot).not.toBe(before.merkleRoot);
    expect(await read(other)).toEqual(after);
  });

  it('is exact after late attestations before the first and after the last, through this daemon', async () => {
    await read(t.app);
    for (const [attestationId, timestamp] of [
      ['c-late-first', base - 1],
      ['c-late-last', base + 86_400_000],
    ] as const) {
      const body = attestation({
        attestationId,
        epochId: EPOCH,
        timestamp: new Date(timestamp).toISOString(),
      });
      await post(t.app, signed(body, sidecar));
    }
    const summary = await read(t.app);
    expect(summary).toMatchObject(expected(members));
    expect(summary.levels.L2).toBe(2);
  });

  it('does not count a replay of a known attestation', async () => {
    const before = await read(t.app);
    const replay = await other.inject({
      method: 'POST',
      url: URL,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: members[0],
    });
    expect(replay.statusCode).toBe(200);
    expect(await read(t.app)).toEqual(before);
  });

  it('keeps the count of each epoch in the database, folded into one piece by a read', async () => {
    const counts = async () =>
      t.db
        .em()
        .execute<{ total: string; pieces: string }[]>(
          `select coalesce(sum(attestations), 0)::text as total, count(*)::text as pieces
           from attestation_epoch_counts where org_id = ? and epoch_id = ?`,
          [ORG, EPOCH],
        )
        .then(([row]) => ({ total: Number(row.total), pieces: Number(row.pieces) }));
    await post(other, attestation({ level: 'L0', epochId: EPOCH }));
    await post(t.app, attestation({ level: 'L0', epochId: 'another-epoch' }));
    expect((await counts()).total).toBe(members.filter((body) => body.epochId === EPOCH).length);
    expect((await counts()).pieces).toBeGreaterThan(1);
    expect(await read(t.app)).toMatchObject(expected(members.filter((body) => body.epochId === EPOCH)));
    expect(await counts()).toEqual({
      total: members.filter((body) => body.epochId === EPOCH).length,
      pieces: 1,
    });
  });
});
