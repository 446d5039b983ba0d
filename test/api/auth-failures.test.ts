import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKey, KeyResolver } from '../../src/features/auth/keys.service.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const LIMIT = 20;

describe.each(dbKinds)('refused authentications on %s', (kind) => {
  let t: TestApp;
  let validKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { COMPLY_AUTH_FAILURES_MAX: String(LIMIT), COMPLY_AUTH_FAILURES_WINDOW_MS: '60000' },
    });
    await t.createOrg('acme');
    validKey = await t.createKey('acme', ['read']);
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const get = (key: string, remoteAddress: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/v1/orgs/acme',
      headers: { authorization: `Bearer ${key}` },
      remoteAddress,
    });
  const unknownKey = (index: number) => `cmp_unknown-${index}-${'x'.repeat(32)}`;

  it('answers 429 with Retry-After past the limit, without looking further keys up', async () => {
    // A valid key used from the address before the flood stays known without the database.
    expect((await get(validKey, '10.0.0.1')).statusCode).toBe(200);
    // Counts the lookups that reach the database (the real method runs).
    const lookUps = vi.spyOn(KeyResolver.prototype, 'lookUp');
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    for (let index = 0; index < 200; index += 1) {
      const res = await get(unknownKey(index), '10.0.0.1');
      statuses.push(res.statusCode);
      if (res.statusCode === 429) limited ??= res;
    }
    expect(statuses.slice(0, LIMIT).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
    expect(lookUps).toHaveBeenCalledTimes(LIMIT);
    expect(limited?.json().error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: LIMIT } });
    const retryAfter = Number(limited?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // A key refused before is refused with 429 too, and a missing key as well.
    expect((await get(unknownKey(0), '10.0.0.1')).statusCode).toBe(429);
    const bare = await t.app.inject({ method: 'GET', url: '/api/v1/orgs/acme', remoteAddress: '10.0.0.1' });
    expect(bare.statusCode).toBe(429);
    expect(lookUps).toHaveBeenCalledTimes(LIMIT);

    // The valid key the cache knows keeps working from the limited address.
    expect((await get(validKey, '10.0.0.1')).statusCode).toBe(200);
  });

  it('still looks up, from a limited address, a key or session that resolved before its cache entry ran out', async () => {
    const address = '10.0.0.9';
    const { key, keyId } = await createKey(t.db.em(), { orgId: 'acme', scopes: ['read'] });
    expect((await get(key, address)).statusCode).toBe(200);
    await addMember(t, 'acme', { email: 'nat@acme.example', name: 'Nat', role: 'viewer' });
    const cookie = await signIn(t, 'nat@acme.example', 'correct horse battery');
    const asPerson = () =>
      t.app.inject({ method: 'GET', url: '/api/v1/orgs/acme', headers: { cookie }, remoteAddress: address });
    expect((await asPerson()).statusCode).toBe(200);
    // Another client behind the same address floods it with unknown keys.
    for (let index = 0; index < LIMIT; index += 1) await get(unknownKey(1000 + index), address);
    expect((await get(unknownKey(2000), address)).statusCode).toBe(429);
    // Past the credential caches' 10 s (within the address's window): neither is known without the database.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 11_000);
    try {
      const lookUps = vi.spyOn(KeyResolver.prototype, 'lookUp');
      expect((await get(key, address)).statusCode).toBe(200);
      expect(lookUps).toHaveBeenCalledTimes(1);
      expect((await asPerson()).statusCode).toBe(200);
      // Unknown keys still get 429 without a lookup, and so does the key once it is revoked.
      expect((await get(unknownKey(2001), address)).statusCode).toBe(429);
      const revoked = await t.request({ method: 'DELETE', url: `/api/v1/orgs/acme/keys/${keyId}` });
      expect(revoked.statusCode).toBe(204);
      expect((await get(key, address)).statusCode).toBe(429);
      expect(lookUps).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves other addresses alone', async () => {
    const refused = await get(unknownKey(1), '10.0.0.2');
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('UNAUTHORIZED');
    expect((await get(validKey, '10.0.0.2')).statusCode).toBe(200);
    const fresh = await t.createKey('acme', ['read']);
    expect((await get(fresh, '10.0.0.3')).statusCode).toBe(200);
  });

  it('keeps unknown secrets from crowding known keys out of the cache, and bounds both', async () => {
    const resolver = new KeyResolver(t.db.em, null, { keys: 10, refusals: 5 });
    const principal = await resolver.lookUp(validKey);
    expect(principal).toMatchObject({ orgId: 'acme' });
    for (let index = 0; index < 50; index += 1) expect(await resolver.lookUp(unknownKey(index))).toBeNull();
    expect(resolver.known(validKey)).toEqual(principal);
    expect(resolver.known(unknownKey(49))).toBeNull();
    // The oldest refusals went first: at most 5 are kept.
    expect(resolver.known(unknownKey(0))).toBeUndefined();
    expect(resolver.known(unknownKey(44))).toBeUndefined();
    expect(resolver.known(unknownKey(45))).toBeNull();
  });
});
