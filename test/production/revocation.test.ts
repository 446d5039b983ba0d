import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import type { Revocation, RevocationBus } from '../../src/platform/cache/revocations.js';
import { loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { createRedis } from '../../src/platform/jobs/redis.js';
import { attestation, newSidecarKey, signed } from '../attestations/helpers.js';
import { ADMIN_KEY, createScratchDatabase, REDIS_TEST_URL } from '../support/app.js';

const ORG = 'revoke-org';
const log = pino({ level: 'silent' });

interface Instance {
  app: FastifyInstance;
  db: Database;
  redis: Redis;
  bus: RevocationBus;
}

/** Waits for `bus` to apply the revocation of `keyId`, whether it came from this instance or another. */
const applied = async (bus: RevocationBus, keyId: string) => {
  for (;;) {
    const [revocation] = (await once(bus, 'revocation')) as [Revocation];
    if ('keyId' in revocation && revocation.keyId === keyId) return;
  }
};

/**
 * Two daemon instances on one PostgreSQL and one Redis: a key revoked through one is refused by the
 * other as soon as the revocation reaches it over Redis, even though the other had it cached.
 */
describe('revocation across daemon instances', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  const instances: Instance[] = [];

  async function instance(): Promise<Instance> {
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'silent',
    });
    const db = await openDatabase(config);
    const redis = createRedis(REDIS_TEST_URL, 'command', log, 'rate-limit');
    const jobs = new InProcessJobRunner(db, log);
    const app = await buildApp({ config, db, jobs, redis });
    app.addHook('onClose', () => jobs.close());
    await app.ready();
    const bus = app.revocations;
    await bus.ready();
    const created = { app, db, redis, bus };
    instances.push(created);
    return created;
  }

  beforeAll(async () => {
    scratch = await createScratchDatabase();
  });
  afterAll(async () => {
    for (const { app, db, redis } of instances) {
      await app.close();
      redis.disconnect();
      await db.close();
    }
    await scratch.drop();
  });

  it('refuses a revoked API key and sidecar key on the other instance at once', async () => {
    const a = await instance();
    const b = await instance();
    await seedControlLibrary(a.db.em());
    await createOrg(a.db.em(), { orgId: ORG, name: 'Revoke' });
    const created = await createKey(a.db.em(), { orgId: ORG, scopes: ['read', 'attest'] });
    const sidecar = newSidecarKey('revoke-sidecar');
    const admin = { authorization: `Bearer ${ADMIN_KEY}` };
    const registered = await a.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      headers: admin,
      payload: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    expect(registered.statusCode).toBe(201);

    const attest = () =>
      b.app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${ORG}/attestations`,
        headers: admin,
        payload: signed(attestation({ epochId: 'revoke' }), sidecar),
      });
    const read = () =>
      b.app.inject({
        method: 'GET',
        url: `/api/v1/orgs/${ORG}/ai-systems`,
        headers: { authorization: `Bearer ${created.key}` },
      });
    // B has both keys cached now.
    expect((await attest()).statusCode).toBe(201);
    expect((await read()).statusCode).toBe(200);

    const sidecarSeen = applied(b.bus, sidecar.keyId);
    const revokedSidecar = await a.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${ORG}/sidecar-keys/${sidecar.keyId}`,
      headers: admin,
    });
    expect(revokedSidecar.statusCode).toBe(204);
    await sidecarSeen;
    const refused = await attest();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.reason).toBe('revoked_key');

    const keySeen = applied(b.bus, created.keyId);
    const revokedKey = await a.app.inject({
      method: 'DELETE',
      url: `/api/v1/orgs/${ORG}/keys/${created.keyId}`,
      headers: admin,
    });
    expect(revokedKey.statusCode).toBe(204);
    await keySeen;
    expect((await read()).statusCode).toBe(401);
  }, 60_000);

  it("ends a disabled member's session on the other instance at once", async () => {
    const [a, b] = instances;
    const admin = { authorization: `Bearer ${ADMIN_KEY}` };
    const invited = await a.app.inject({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/members`,
      headers: admin,
      payload: { email: 'eve@example.com', name: 'Eve Editor', role: 'editor' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { userId, invitation } = invited.json();
    const accepted = await a.app.inject({
      method: 'POST',
      url: '/api/v1/auth/invitations/accept',
      payload: { token: invitation.token, password: 'correct horse battery' },
    });
    const cookie = String(accepted.headers['set-cookie']).split(';')[0];
    const read = () =>
      b.app.inject({ method: 'GET', url: `/api/v1/orgs/${ORG}/controls`, headers: { cookie } });
    // B has the session cached now.
    expect((await read()).statusCode).toBe(200);

    const seen = new Promise<void>((resolve) => {
      const listener = (revocation: Revocation) => {
        if (revocation.kind === 'user' && revocation.userId === userId) {
          b.bus.off('revocation', listener);
          resolve();
        }
      };
      b.bus.on('revocation', listener);
    });
    const disabled = await a.app.inject({
      method: 'PUT',
      url: `/api/v1/orgs/${ORG}/members/${userId}`,
      headers: admin,
      payload: { status: 'disabled' },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    await seen;
    expect((await read()).statusCode).toBe(401);
  }, 60_000);
});
