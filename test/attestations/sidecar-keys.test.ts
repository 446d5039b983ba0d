import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { attestation, newSidecarKey, signed } from './helpers.js';

describe.each(dbKinds)('sidecar keys on %s', (kind) => {
  let t: TestApp;
  const url = '/api/v1/orgs/keys-org/sidecar-keys';

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('keys-org');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('registers a PEM key under a chosen id and a raw base64 key under a generated one', async () => {
    const pem = newSidecarKey('sidecar-a');
    const res = await t.request({
      method: 'POST',
      url,
      body: { publicKey: pem.publicPem, keyId: 'sidecar-a' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers.location).toBe(`${url}/sidecar-a`);
    const created = res.json();
    expect(created).toMatchObject({
      keyId: 'sidecar-a',
      orgId: 'keys-org',
      algorithm: 'Ed25519',
      revokedAt: null,
    });
    expect(created.publicKey).toBe(pem.publicPem);
    expect(created.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const shown = await t.request({ method: 'GET', url: res.headers.location as string });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(created);

    const raw = newSidecarKey('generated');
    const second = await t.request({
      method: 'POST',
      url,
      body: { publicKey: raw.publicRaw, name: 'edge box' },
    });
    expect(second.statusCode).toBe(201);
    const derived = createHash('sha256')
      .update(Buffer.from(raw.publicRaw, 'base64'))
      .digest('hex')
      .slice(0, 24);
    expect(second.json().keyId).toBe(`sk-${derived}`);
    expect(second.json().name).toBe('edge box');
    expect(second.json().publicKey).toBe(raw.publicPem);
  });

  it('signs and revokes under a derived id, and refuses the same key twice', async () => {
    const key = newSidecarKey('derived');
    const created = await t.request({ method: 'POST', url, body: { publicKey: key.publicRaw } });
    const keyId = created.json().keyId;
    const again = await t.request({ method: 'POST', url, body: { publicKey: key.publicPem } });
    expect(again.statusCode).toBe(409);
    const attestKey = await t.createKey('keys-org', ['attest']);
    const post = (body: Record<string, unknown>) =>
      t.request({ method: 'POST', url: '/api/v1/orgs/keys-org/attestations', key: attestKey, body });
    expect((await post(signed(attestation(), { keyId, privateKey: key.privateKey }))).statusCode).toBe(201);
    expect((await t.request({ method: 'DELETE', url: `${url}/${keyId}` })).statusCode).toBe(204);
    const refused = await post(signed(attestation(), { keyId, privateKey: key.privateKey }));
    expect(refused.json().error.details.reason).toBe('revoked_key');
  });

  it('refuses a duplicate key id', async () => {
    const key = newSidecarKey('dup');
    expect(
      (await t.request({ method: 'POST', url, body: { publicKey: key.publicPem, keyId: 'dup' } })).statusCode,
    ).toBe(201);
    const again = await t.request({ method: 'POST', url, body: { publicKey: key.publicPem, keyId: 'dup' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.details).toEqual({ keyId: 'dup' });
  });

  it('accepts only Ed25519 public keys', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      format: 'pem',
      type: 'spki',
    });
    const x25519 = generateKeyPairSync('x25519').publicKey.export({ format: 'pem', type: 'spki' });
    const ecdsa = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      format: 'pem',
      type: 'spki',
    });
    const privatePem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' });
    const candidates = [
      rsa,
      x25519,
      ecdsa,
      privatePem,
      Buffer.alloc(31, 7).toString('base64'),
      Buffer.alloc(33, 7).toString('base64'),
      'not a key at all!',
      '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
    ];
    for (const publicKey of candidates) {
      const res = await t.request({ method: 'POST', url, body: { publicKey: publicKey.toString() } });
      expect(res.statusCode, publicKey.toString()).toBe(400);
      expect(res.json().error.details).toMatchObject({
        fields: [expect.objectContaining({ field: 'body.publicKey' })],
        reason: 'invalid_public_key',
      });
    }
  });

  it('lists and revokes keys; revoking twice keeps the first time', async () => {
    const key = newSidecarKey('to-revoke');
    await t.request({ method: 'POST', url, body: { publicKey: key.publicPem, keyId: 'to-revoke' } });
    expect((await t.request({ method: 'DELETE', url: `${url}/to-revoke` })).statusCode).toBe(204);
    const first = (await t.request({ method: 'GET', url })).json().sidecarKeys;
    const revoked = first.find((entry: { keyId: string }) => entry.keyId === 'to-revoke');
    expect(revoked.revokedAt).not.toBeNull();
    expect((await t.request({ method: 'DELETE', url: `${url}/to-revoke` })).statusCode).toBe(204);
    const second = (await t.request({ method: 'GET', url })).json().sidecarKeys;
    expect(second.find((entry: { keyId: string }) => entry.keyId === 'to-revoke').revokedAt).toBe(
      revoked.revokedAt,
    );
    expect(first.map((entry: { keyId: string }) => entry.keyId)).toContain('sidecar-a');

    expect((await t.request({ method: 'GET', url: `${url}/to-revoke` })).json().revokedAt).toBe(
      revoked.revokedAt,
    );

    for (const method of ['GET', 'DELETE'] as const) {
      const missing = await t.request({ method, url: `${url}/nope` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Sidecar key not found',
        details: { keyId: 'nope' },
      });
    }
  });

  it('is admin only and org-checked', async () => {
    const tenant = await t.createKey('keys-org', ['read', 'write', 'attest', 'export']);
    const key = newSidecarKey('x');
    expect((await t.request({ method: 'GET', url, key: tenant })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'POST', url, key: tenant, body: { publicKey: key.publicPem } })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `${url}/sidecar-a`, key: tenant })).statusCode).toBe(
      403,
    );
    expect((await t.request({ method: 'GET', url, key: null })).statusCode).toBe(401);
    const unknownOrg = await t.request({ method: 'GET', url: '/api/v1/orgs/no-such-org/sidecar-keys' });
    expect(unknownOrg.statusCode).toBe(404);
    expect(unknownOrg.json().error.message).toBe('Organization not found');
  });
});
