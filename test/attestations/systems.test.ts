import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentOfRecord, signedContent } from '../../src/shared/attestation-content.js';
import { contentHashOf } from '../../src/shared/content-hash.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import {
  attestation,
  type Body,
  contentHash,
  newSidecarKey,
  signed,
  type TestSidecarKey,
} from './helpers.js';

const ORG = 'systems-org';
const URL = `/api/v1/orgs/${ORG}/attestations`;
const SYSTEMS = `/api/v1/orgs/${ORG}/ai-systems`;

/**
 * An attestation's systemId names an AI system of the org, by id or by name: a name is stored as the id
 * (what the inventory and the gate match on), and anything else is refused before anything is stored.
 */
describe.each(dbKinds)('the AI system an attestation names, on %s', (kind) => {
  let t: TestApp;
  let attestKey: string;
  let sidecar: TestSidecarKey;

  const post = (body: Body) => t.request({ method: 'POST', url: URL, body, key: attestKey });
  const addSystem = async (name: string) => {
    const res = await t.request({
      method: 'POST',
      url: SYSTEMS,
      body: { name, owner: 'ml-team', purpose: 'triage', riskLevel: 'high' },
    });
    expect(res.statusCode).toBe(201);
    return res.json().systemId as string;
  };
  const stored = async (attestationId: string) => {
    const rows = await t.db
      .em()
      .execute<{ system_id: string | null }[]>(
        'select system_id from attestations where org_id = ? and attestation_id = ?',
        [ORG, attestationId],
      );
    return rows.map((row) => row.system_id);
  };
  const expectRefused = (res: Awaited<ReturnType<typeof post>>) => {
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details.fields).toEqual([
      { field: 'body.systemId', message: expect.stringMatching(/AI system's systemId or its name/) },
    ]);
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
    await t.createOrg('other-org');
    attestKey = await t.createKey(ORG, ['attest']);
    sidecar = newSidecarKey('systems-sidecar');
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/sidecar-keys`,
      body: { publicKey: sidecar.publicPem, keyId: sidecar.keyId },
    });
    expect(res.statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores an AI system's id as it is", async () => {
    const systemId = await addSystem('Fraud scorer');
    const body = signed(attestation({ systemId }), sidecar);
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ systemId, contentHash: contentHash(body) });
    expect(res.json()).not.toHaveProperty('systemIdAsPosted');
    expect(await stored(body.attestationId as string)).toEqual([systemId]);
  });

  it('resolves a name (ignoring case) to the id, and keeps the signed content verifiable', async () => {
    const systemId = await addSystem('Support Bot');
    const body = signed(attestation({ systemId: 'support bot' }), sidecar);
    const res = await post(body);
    expect(res.statusCode).toBe(201);
    const record = res.json();
    expect(record).toMatchObject({
      systemId,
      systemIdAsPosted: 'support bot',
      contentHash: contentHash(body),
    });
    expect(await stored(body.attestationId as string)).toEqual([systemId]);
    // Anyone holding the record rebuilds the content the sidecar signed, name and all.
    expect(contentHashOf(signedContent(contentOfRecord(record)))).toBe(record.contentHash);

    const fetched = await t.request({ method: 'GET', url: `${URL}/${body.attestationId}` });
    expect(fetched.json()).toEqual(record);
    const listed = await t.request({ method: 'GET', url: `${URL}?epochId=epoch-1&limit=1000` });
    expect(listed.json().attestations).toContainEqual(record);
    // A replay of the same body is the same attestation.
    const replay = await post(body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(record);
  });

  it('refuses a systemId that names no AI system of the org, storing nothing', async () => {
    await t.request({
      method: 'POST',
      url: '/api/v1/orgs/other-org/ai-systems',
      body: { name: 'Elsewhere', owner: 'x', purpose: 'y', riskLevel: 'minimal' },
    });
    for (const systemId of ['chatbot', 'Elsewhere']) {
      const body = attestation({ level: 'L0', systemId });
      expectRefused(await post(body));
      expect(await stored(body.attestationId as string)).toEqual([]);
    }
  });

  it('refuses only the attestation with the bad systemId among those written together', async () => {
    const systemId = await addSystem('Batch model');
    const bodies = Array.from({ length: 12 }, (_, index) =>
      attestation({ level: 'L0', systemId: index === 5 ? 'no-such-system' : systemId }),
    );
    const answers = await Promise.all(bodies.map(post));
    answers.forEach((res, index) => {
      if (index === 5) expectRefused(res);
      else expect(res.statusCode).toBe(201);
    });
    for (const [index, body] of bodies.entries()) {
      expect(await stored(body.attestationId as string)).toEqual(index === 5 ? [] : [systemId]);
    }
  });

  it('follows the inventory at once: a new system, a rename, a deletion', async () => {
    // Loads this org's systems into the cache.
    const first = await addSystem('Ranker');
    expect((await post(attestation({ level: 'L0', systemId: 'ranker' }))).statusCode).toBe(201);

    const added = await addSystem('Summarizer');
    expect((await post(attestation({ level: 'L0', systemId: 'Summarizer' }))).statusCode).toBe(201);

    const renamed = await t.request({
      method: 'PUT',
      url: `${SYSTEMS}/${first}`,
      body: { name: 'Reranker' },
    });
    expect(renamed.statusCode).toBe(200);
    expectRefused(await post(attestation({ level: 'L0', systemId: 'Ranker' })));
    const byNewName = await post(attestation({ level: 'L0', systemId: 'Reranker' }));
    expect(byNewName.json().systemId).toBe(first);

    expect((await t.request({ method: 'DELETE', url: `${SYSTEMS}/${added}` })).statusCode).toBe(204);
    expectRefused(await post(attestation({ level: 'L0', systemId: added })));
    expectRefused(await post(attestation({ level: 'L0', systemId: 'Summarizer' })));
  });
});
