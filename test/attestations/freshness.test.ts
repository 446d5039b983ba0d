import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { foldEvidencePieces } from '../../src/records/records.store.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { attestation, type Body } from './helpers.js';

const DAY_MS = 86_400_000;

describe('COMPLY_ATTESTATION_FRESHNESS_DAYS', () => {
  it('defaults to 90 days and refuses what is not a positive whole number of days', () => {
    expect(loadConfig({}).attestationFreshnessDays).toBe(90);
    expect(loadConfig({ COMPLY_ATTESTATION_FRESHNESS_DAYS: '7' }).attestationFreshnessDays).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => loadConfig({ COMPLY_ATTESTATION_FRESHNESS_DAYS: bad })).toThrow(ConfigError);
    }
  });
});

/**
 * The evidence an attestation creates expires a configured number of days after the attestation's time, so
 * a control that only attestations support stops counting as implemented when they are no longer fresh.
 */
describe.each(dbKinds)('attestation evidence freshness on %s', (kind) => {
  const ORG = 'fresh-org';
  let t: TestApp;
  let attestKey: string;

  const post = async (body: Body) => {
    const res = await t.request({
      method: 'POST',
      url: `/api/v1/orgs/${ORG}/attestations`,
      body,
      key: attestKey,
    });
    expect(res.statusCode).toBe(201);
  };
  const expiryOf = async (attestationId: string) => {
    const rows = await t.db
      .em()
      .execute<{ expires_at: string | Date | null }[]>(
        'select expires_at from evidence where org_id = ? and attestation_id = ?',
        [ORG, attestationId],
      );
    return rows.map((row) => (row.expires_at === null ? null : new Date(row.expires_at).toISOString()));
  };
  const control = async (controlId: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/orgs/${ORG}/controls/${controlId}` })).json();
  const implement = async (controlId: string) => {
    const res = await t.request({
      method: 'PUT',
      url: `/api/v1/orgs/${ORG}/controls/${controlId}/status`,
      body: { status: 'implemented', reviewer: 'alice' },
    });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { COMPLY_ATTESTATION_FRESHNESS_DAYS: '3' } });
    await t.createOrg(ORG);
    attestKey = await t.createKey(ORG, ['attest']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("gives each evidence row an expiry counted from the attestation's time", async () => {
    const timestamp = new Date(Date.UTC(2026, 10, 22, 10, 0, 0, 123)).toISOString();
    const body = attestation({
      level: 'L0',
      systemId: undefined,
      controlIds: ['A.6.2.6', 'A.6.2.8'],
      timestamp,
    });
    await post(body);
    const expiry = new Date(Date.parse(timestamp) + 3 * DAY_MS).toISOString();
    expect(await expiryOf(body.attestationId as string)).toEqual([expiry, expiry]);
  });

  it('lets an implemented control supported only by stale attestations count as expired, until a fresh one', async () => {
    const controlId = 'A.7.4';
    await implement(controlId);
    const stale = new Date(Date.now() - 4 * DAY_MS).toISOString();
    await post(attestation({ level: 'L0', systemId: undefined, controlIds: [controlId], timestamp: stale }));
    // Before and after the roll-up pieces are folded into the record.
    expect(await control(controlId)).toMatchObject({ evidenceCount: 1, evidenceExpired: true });
    await foldEvidencePieces(t.db, ORG);
    expect(await control(controlId)).toMatchObject({ evidenceCount: 1, evidenceExpired: true });

    const fresh = new Date(Date.now() - DAY_MS).toISOString();
    await post(attestation({ level: 'L0', systemId: undefined, controlIds: [controlId], timestamp: fresh }));
    expect(await control(controlId)).toMatchObject({ evidenceCount: 2, evidenceExpired: false });
    await foldEvidencePieces(t.db, ORG);
    expect(await control(controlId)).toMatchObject({ evidenceCount: 2, evidenceExpired: false });
  });
});
