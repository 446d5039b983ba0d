import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { failedDependency } from '../../src/platform/unavailable.js';
import { attestation, newSidecarKey, signed } from '../attestations/helpers.js';
import { type PrivatePostgres, startPrivatePostgres } from '../attestations/private-postgres.js';
import { ADMIN_KEY } from '../support/app.js';

const ORG = 'outage-org';

/**
 * PostgreSQL stopped under a running daemon: every route, the API-key lookup included, answers the
 * documented 503 with Retry-After (never a 500), logs one warning line without a stack per refusal,
 * readiness names the database, and the same daemon serves again once PostgreSQL is back.
 */
describe('PostgreSQL down', () => {
  let server: PrivatePostgres;
  let db: Database;
  let app: FastifyInstance;
  let readKey: string;
  let attestKey: string;
  const lines: Record<string, unknown>[] = [];
  const sidecar = newSidecarKey('outage-sidecar');

  beforeAll(async () => {
    server = await startPrivatePostgres();
    const config = loadConfig({ DATABASE_URL: server.url, COMPLY_ADMIN_KEY: ADMIN_KEY, LOG_LEVEL: 'info' });
    db = await openDatabase(config);
    await seedControlLibrary(db.em());
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino({ level: 'info' }, sink);
    const jobs = new InProcessJobRunner(db, pino({ level: 'silent' }));
    app = await buildApp({ config, db, jobs, logger });
    app.addHook('onClose', () => jobs.close());
    await app.ready();
    await createOrg(db.em(), { orgId: ORG, name: 'Outage' });
    readKey = (await createKey(db.em(), { orgId: ORG, scopes: ['read'] })).key;
    attestKey = (await createKey(db.em(), { orgId: ORG, scopes: ['attest'] })).key;
    const registered = await app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    expect(registered.statusCode).toBe(201);
  }, 60_000);

  afterAll(async () => {
    try {
      await app?.close();
      await db?.close();
    } finally {
      await server?.stop();
    }
  });

  const get = (url: string, key = readKey) =>
    app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

  it('answers 503 with Retry-After on every route, and serves again afterwards', async () => {
    // Warm: this key is now cached, so its requests reach the routes' own queries.
    expect((await get(`/api/v1/orgs/${ORG}/controls`)).statusCode).toBe(200);
    await server.halt();
    try {
      const requests = [
        // Routes whose answers are not cached (the org's controls and score may be served from memory).
        () => get(`/api/v1/orgs/${ORG}/controls/A.2.2/evidence`),
        () => get(`/api/v1/orgs/${ORG}/ai-systems`),
        () => get('/api/v1/orgs', ADMIN_KEY),
        // A key this daemon has not seen: the key lookup itself meets the outage.
        () => get(`/api/v1/orgs/${ORG}/controls`, 'cmp_never-seen-before-key-000000000000'),
        () =>
          app.inject({
            method: 'POST',
            url: `/api/v1/orgs/${ORG}/attestations`,
            headers: { authorization: `Bearer ${attestKey}` },
            payload: signed(attestation({ epochId: 'outage' }), sidecar),
          }),
      ];
      const before = lines.length;
      for (const send of requests) {
        const res = await send();
        expect(res.statusCode, res.body.slice(0, 300)).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        const body = res.json();
        expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(body.error.details.retryAfterSeconds).toBe(Number(res.headers['retry-after']));
        expect(typeof body.error.details.requestId).toBe('string');
      }
      const logged = lines.slice(before).filter((line) => (line.level as number) >= 40);
      expect(logged).toHaveLength(requests.length);
      for (const line of logged) {
        expect(line.level).toBe(40);
        expect(JSON.stringify(line)).not.toMatch(/"stack"|\\n\s+at /);
        expect(line.reqId).toBeTruthy();
      }

      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ database: 'unreachable' });
    } finally {
      await server.start();
    }
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect((await get(`/api/v1/orgs/${ORG}/controls`)).statusCode).toBe(200);
    expect(
      (await get(`/api/v1/orgs/${ORG}/controls`, 'cmp_never-seen-before-key-000000000000')).statusCode,
    ).toBe(401);
  }, 60_000);
});

/**
 * A handler still running when shutdown closes the pool (its client already gone) is a 503, not a fault:
 * the messages of Kysely (under MikroORM) and of pg's pool once they are closed.
 */
describe('a database closed under a running handler', () => {
  it('is recognised as the database being unavailable', () => {
    expect(failedDependency(new Error('driver has already been destroyed'))).toBe('database');
    expect(failedDependency(new Error('Cannot use a pool after calling end on the pool'))).toBe('database');
    expect(failedDependency(new Error('column "x" does not exist'))).toBeNull();
  });
});
