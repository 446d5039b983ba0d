import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AttestationClient,
  AttestationPostError,
  buildAttestation,
  signAttestation,
} from '../../src/clients/sidecar/client.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { type Body, contentHash, newSidecarKey } from './helpers.js';

const ORG = 'client-org';

describe.each(dbKinds)('attestation client over HTTP on %s', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  let apiKey: string;
  const sidecar = newSidecarKey('client-sidecar');
  const signer = {
    keyId: sidecar.keyId,
    privateKey: sidecar.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    apiKey = await t.createKey(ORG, ['attest']);
    await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds, signs and posts an L2 attestation exactly as the daemon verifies it', async () => {
    // A slow machine must not turn the first attempt into a timeout and the answer into a replay.
    const client = new AttestationClient({ baseUrl, apiKey, orgId: ORG, timeoutMs: 60_000 });
    const result = await client.attest(
      {
        level: 'L2',
        epochId: 'client-epoch',
        controlIds: ['A.6.2.6'],
        claims: { check: 'pass', score: 0.97 },
      },
      signer,
    );
    expect(result.created).toBe(true);
    expect(result.attempts).toBe(1);
    const { attestation } = result;
    expect(attestation.level).toBe('L2');
    expect(attestation.signature?.keyId).toBe('client-sidecar');
    const {
      receivedAt: _r,
      contentHash: hash,
      signature,
      serverAssignedId: _s,
      systemId: _n,
      ...content
    } = attestation;
    expect(hash).toBe(contentHash(content as Body));
    expect(signature).not.toBeNull();
  });

  it('signs under the id the daemon derived from the key when none is given', async () => {
    const anonymous = newSidecarKey('unused');
    const registered = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: anonymous.publicPem },
    });
    // A slow machine must not turn the first attempt into a timeout and the answer into a replay.
    const client = new AttestationClient({ baseUrl, apiKey, orgId: ORG, timeoutMs: 60_000 });
    const result = await client.attest(
      { level: 'L2', epochId: 'client-epoch', controlIds: ['A.6.2.6'] },
      { privateKey: anonymous.privateKey },
    );
    expect(result.created).toBe(true);
    expect(result.attestation.signature?.keyId).toBe(registered.json().keyId);
  });

  it('retries with the same id when a response is lost, and the daemon stores it once', async () => {
    let calls = 0;
    const losingFirstResponse: typeof fetch = async (input, init) => {
      calls += 1;
      const response = await fetch(input, init);
      if (calls === 1) throw new TypeError('socket hang up');
      return response;
    };
    const client = new AttestationClient({
      baseUrl,
      apiKey,
      orgId: ORG,
      retryDelayMs: 1,
      fetch: losingFirstResponse,
    });
    const body = signAttestation(
      buildAttestation({ level: 'L2', epochId: 'client-epoch', controlIds: ['A.6.2.6'], claims: { run: 2 } }),
      signer,
    );
    const result = await client.post(body);
    expect(result).toMatchObject({ created: false, attempts: 2 });
    expect(result.attestation.attestationId).toBe(body.attestationId);
    const [row] = await t.db
      .em()
      .execute<{ n: number }[]>('select count(*)::int as n from attestations where attestation_id = ?', [
        body.attestationId,
      ]);
    expect(row.n).toBe(1);
  });

  it('does not retry a refusal', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls += 1;
      return fetch(input, init);
    };
    const client = new AttestationClient({ baseUrl, apiKey, orgId: ORG, retryDelayMs: 1, fetch: counting });
    const body = buildAttestation({
      level: 'L0',
      epochId: 'client-epoch',
      controlIds: ['A.6.2.6'],
      claims: { v: 1 },
    });
    await client.post(body);
    const error = await client.post({ ...body, claims: { v: 2 } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttestationPostError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT' });
    const unsigned = await client
      .post(buildAttestation({ level: 'L2', epochId: 'client-epoch', controlIds: ['A.6.2.6'] }))
      .catch((caught: unknown) => caught);
    expect(unsigned).toMatchObject({ status: 400, details: { reason: 'missing_signature' } });
    expect(calls).toBe(3);
  });

  it('gives up after its retries when the daemon cannot be reached', async () => {
    const client = new AttestationClient({
      baseUrl: 'http://127.0.0.1:1',
      apiKey,
      orgId: ORG,
      retries: 2,
      retryDelayMs: 1,
    });
    const error = await client
      .attest({ level: 'L0', epochId: 'client-epoch', controlIds: ['A.6.2.6'] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttestationPostError);
    expect(error).toMatchObject({ status: null });
  });
});
