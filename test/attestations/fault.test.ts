import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { AttestationIngest } from '../../src/features/attestations/attestations.ingest.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY } from '../support/app.js';
import { attestation, type Body, contentHash, newSidecarKey, signed } from './helpers.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

const ORG = 'fault-org';
const POSTERS = 16;
const SUCCESSES_PER_PHASE = 40;

interface Attempt {
  body: Body;
  status: number | null;
  startedAt: number;
  endedAt: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Restarts the PostgreSQL server under a stream of concurrent L2 posts. Whatever each request was
 * told must be true afterwards: 201/200 means stored (with all of its evidence), anything else means
 * not stored. The daemon must carry on without being restarted itself.
 */
describe('attestation ingestion while PostgreSQL restarts', () => {
  let server: PrivatePostgres;
  let db: Database;
  let app: FastifyInstance;
  let attestKey: string;
  const sidecar = newSidecarKey('fault-sidecar');

  beforeAll(async () => {
    server = await startPrivatePostgres();
    const config = loadConfig({
      DATABASE_URL: server.url,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
      COMPLY_RATE_LIMIT_MAX: '10000000',
    });
    db = await openDatabase(config);
    await seedControlLibrary(db.em());
    const jobs = new InProcessJobRunner(db, pino({ level: 'silent' }));
    app = await buildApp({ config, db, jobs });
    app.addHook('onClose', () => jobs.close());
    await createOrg(db.em(), { orgId: ORG, name: 'Fault' });
    attestKey = (await createKey(db.em(), { orgId: ORG, scopes: ['attest'] })).key;
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    expect(res.statusCode).toBe(201);
  }, 60_000);

  afterAll(async () => {
    try {
      await app?.close();
      // Bounded: a pool left with a broken connection would wait forever, and the server must still stop.
      await Promise.race([db?.close(), pause(10_000)]);
    } finally {
      await server?.stop();
    }
  });

  it('acknowledges only what it stored, and recovers by itself', async () => {
    const attempts: Attempt[] = [];
    let stopping = false;
    const successes = () =>
      attempts.filter((attempt) => attempt.status === 200 || attempt.status === 201).length;
    const poster = async () => {
      while (!stopping) {
        const body = signed(attestation({ epochId: 'fault', controlIds: ['A.6.2.6', 'A.7.2'] }), sidecar);
        const attempt: Attempt = { body, status: null, startedAt: Date.now(), endedAt: 0 };
        attempts.push(attempt);
        const res = await app
          .inject({
            method: 'POST',
            url: `/api/v1/orgs/${ORG}/attestations`,
            headers: { authorization: `Bearer ${attestKey}` },
            payload: body,
          })
          .catch(() => null);
        attempt.status = res?.statusCode ?? null;
        attempt.endedAt = Date.now();
      }
    };
    const startTime = async () => {
      const [row] = await db
        .em()
        .execute<{ started: Date }[]>('select pg_postmaster_start_time() as started');
      return new Date(row.started).getTime();
    };
    const waitForSuccesses = async (count: number) => {
      while (successes() < count) await pause(20);
    };

    const startedBefore = await startTime();
    const posters = Array.from({ length: POSTERS }, poster);
    await waitForSuccesses(SUCCESSES_PER_PHASE);
    const restartBegan = Date.now();
    await server.restart();
    const restartEnded = Date.now();
    await waitForSuccesses(successes() + SUCCESSES_PER_PHASE);
    stopping = true;
    await Promise.all(posters);

    expect(await startTime()).toBeGreaterThan(startedBefore);
    const overlapping = attempts.filter(
      (attempt) => attempt.startedAt <= restartEnded && attempt.endedAt >= restartBegan,
    );
    expect(overlapping.length).toBeGreaterThan(0);

    const stored = new Map(
      (
        await db.em().execute<{ attestation_id: string; content_hash: string; evidence: number }[]>(
          `select a.attestation_id, a.content_hash,
               (select count(*)::int from evidence e where e.org_id = a.org_id and e.attestation_id = a.attestation_id) as evidence
             from attestations a where a.org_id = ?`,
          [ORG],
        )
      ).map((row) => [row.attestation_id, row]),
    );
    for (const attempt of attempts) {
      const row = stored.get(attempt.body.attestationId as string);
      if (attempt.status === 201 || attempt.status === 200) {
        expect(row, `acknowledged ${attempt.body.attestationId} must be stored`).toBeDefined();
        expect(row?.content_hash).toBe(contentHash(attempt.body));
        expect(row?.evidence).toBe(2);
      } else {
        expect(
          row,
          `refused ${attempt.body.attestationId} (${attempt.status}) must not be stored`,
        ).toBeUndefined();
      }
    }
    expect(stored.size).toBe(
      attempts.filter((attempt) => attempt.status === 201 || attempt.status === 200).length,
    );
    // Errors, if any, are the retryable kind; nothing malformed or unexpected.
    for (const attempt of attempts) expect([200, 201, 503]).toContain(attempt.status);

    // The same daemon, never restarted, serves normally again.
    const after = await app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/attestations`,
      headers: { authorization: `Bearer ${attestKey}` },
      payload: signed(attestation({ epochId: 'fault' }), sidecar),
    });
    expect(after.statusCode).toBe(201);
    // No connection the restart broke stays checked out of the pool.
    const connection = db.orm.em.getConnection();
    if (!(connection instanceof PostgreSqlConnection)) throw new Error('expected PostgreSQL');
    const pool = await connection.getNativeClient();
    const settleBy = Date.now() + 10_000;
    while (pool.totalCount !== pool.idleCount && Date.now() < settleBy) await pause(50);
    expect(pool.totalCount - pool.idleCount, 'connections left checked out').toBe(0);
    expect(pool.waitingCount).toBe(0);
  }, 60_000);

  it('answers 503 when the database stays away, stores nothing, and takes the retry afterwards', async () => {
    // A short retry window stands in for an outage longer than the daemon's 15 s.
    const writer = new AttestationIngest(db, { retryWindowMs: 300 });
    // Warm: the refusal below then comes from the write path itself, not from a cold cache.
    await writer.ingest(ORG, signed(attestation({ epochId: 'fault' }), sidecar) as never, null);
    const cold = new AttestationIngest(db, { retryWindowMs: 300 });
    const body = signed(attestation({ epochId: 'fault', controlIds: ['A.6.2.6'] }), sidecar);
    await server.halt();
    try {
      for (const ingest of [writer, cold]) {
        const refused = await ingest.ingest(ORG, body as never, null).catch((error: unknown) => error);
        expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 });
      }
    } finally {
      await server.start();
    }
    const count = async () => {
      const [row] = await db
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from attestations where attestation_id = ?', [
          body.attestationId,
        ]);
      return row.n;
    };
    expect(await count()).toBe(0);
    const retried = await writer.ingest(ORG, body as never, null);
    expect(retried.created).toBe(true);
    expect(await count()).toBe(1);
    await Promise.all([writer.close(), cold.close()]);
  }, 60_000);
});
