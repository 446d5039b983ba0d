import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KeyResolver } from '../../src/features/auth/keys.service.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

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
