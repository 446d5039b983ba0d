import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJob } from '../../src/features/exports/export.job.js';
import { decodedArtifact, spooledArtifact } from '../../src/features/exports/export-artifact.js';
import { storeExportResult, takeExportResult } from '../../src/features/exports/export-results.store.js';
import { type OscalPackage, validateOscalPackage } from '../../src/features/exports/oscal/index.js';
import { Spool } from '../../src/features/exports/spool.js';
import { BullmqJobRunner } from '../../src/platform/jobs/bullmq.runner.js';
import { startBullmqWorkers, type WorkerPool } from '../../src/platform/jobs/bullmq.worker.js';
import { createTestApp, dbKinds, openTestDatabase, REDIS_TEST_URL, type TestApp } from '../support/app.js';
import { removePrefix } from '../support/redis-prefix.js';
import { type SeededOrg, seedExportOrg } from './api-org.factory.js';

const log = pino({ level: 'silent' });

describe.each(dbKinds)('export result hand-over on %s', (kind) => {
  it('stores a result once and hands it over exactly once', async () => {
    const { db, close } = await openTestDatabase(kind);
    try {
      const body = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
      const id = await storeExportResult(db.em(), {
        contentType: 'application/zip',
        fileName: 'x.zip',
        body,
      });
      const taken = await takeExportResult(db.em(), id);
      expect(taken?.contentType).toBe('application/zip');
      expect(taken?.fileName).toBe('x.zip');
      expect(taken?.body.equals(body)).toBe(true);
      expect(await takeExportResult(db.em(), id)).toBeNull();

      // A spooled archive travels as it is, and its spool is given back.
      const spool = new Spool();
      spool.writeBytes(body);
      const spooled = spooledArtifact({ contentType: 'application/zip', fileName: 'y.zip' }, spool, [
        { start: 0, end: body.length },
      ]);
      const handed = await takeExportResult(db.em(), await storeExportResult(db.em(), spooled));
      expect(handed?.contentEncoding).toBeUndefined();
      expect(handed?.body.equals(body)).toBe(true);
      expect(() => spool.read({ start: 0, end: 1 })).toThrow('released');

      // Large text travels gzipped, and decodes to the same bytes.
      const text = Buffer.from(
        JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => `row ${i}`) }),
      );
      const json = { contentType: 'application/json; charset=utf-8', fileName: 'x.json', body: text };
      const stored = await takeExportResult(db.em(), await storeExportResult(db.em(), json));
      expect(stored?.contentEncoding).toBe('gzip');
      expect(stored?.body.length).toBeLessThan(text.length / 3);
      expect(stored && (await decodedArtifact(stored)).body.equals(text)).toBe(true);
    } finally {
      await close();
    }
  });
});

describe.runIf(dbKinds.includes('postgres'))('exports on a BullMQ worker', () => {
  const prefix = `test-exports-${randomBytes(4).toString('hex')}`;
  let t: TestApp;
  let pool: WorkerPool;
  let org: SeededOrg;
  const get = (path: string, headers: Record<string, string> = {}) =>
    t.request({ method: 'GET', url: `/api/v1/orgs/${org.orgId}/export/${path}`, headers });

  beforeAll(async () => {
    t = await createTestApp('postgres', {
      jobs: (db) => new BullmqJobRunner({ url: REDIS_TEST_URL, db, log, prefix, waitMs: 60_000 }),
    });
    pool = startBullmqWorkers({ url: REDIS_TEST_URL, db: t.db, log, prefix, jobs: [exportJob] });
    await Promise.all(pool.workers.map((worker) => worker.waitUntilReady()));
    org = await seedExportOrg(t, 'acme');
  }, 120_000);
  afterAll(async () => {
    await pool?.close();
    await t?.close();
    await removePrefix(REDIS_TEST_URL, prefix);
  });

  it('produces the OSCAL package on the worker and hands it back through the database', async () => {
    expect(t.jobs.kind).toBe('bullmq');
    const response = await get('oscal');
    expect(response.statusCode, response.body).toBe(200);
    const pkg: OscalPackage = response.json();
    expect(validateOscalPackage(pkg)).toEqual([]);
    const [result] = pkg['oscal-package'].documents['assessment-results.json']['assessment-results'].results;
    expect(result.observations).toHaveLength(org.evidenceCount);

    const zip = await get('oscal?format=zip');
    expect(zip.headers['content-type']).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const zipped = JSON.parse(Buffer.from(files['ssp.json']).toString('utf8'))['system-security-plan'];
    const plan = pkg['oscal-package'].documents['ssp.json']['system-security-plan'];
    expect(zipped['control-implementation']).toEqual(plan['control-implementation']);
    expect(zipped['back-matter']).toEqual(plan['back-matter']);
    const [{ left }] = await t.db
      .em()
      .execute<{ left: number }[]>('select count(*)::int as "left" from export_results');
    expect(left).toBe(0);
  });

  it('sends the gzipped hand-over as is to a client that accepts gzip', async () => {
    const plain = await get('oscal');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await get('oscal', { 'accept-encoding': 'br, gzip;q=0.8' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const pkg: OscalPackage = JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8'));
    expect(validateOscalPackage(pkg)).toEqual([]);
    const refused = await get('oscal', { 'accept-encoding': 'gzip;q=0, identity' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('renders the Statement of Applicability on the worker', async () => {
    const response = await get('soa?format=csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(parse(response.body, { columns: true })).toHaveLength(org.controls.length);
    const missing = await get('soa?snapshotId=none');
    expect(missing.statusCode).toBe(404);
  });
});
