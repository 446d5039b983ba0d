import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, dbKinds, openTestDatabase, type TestDatabase } from '../support/app.js';

// Only PostgreSQL runs transactions side by side (PGlite has one connection).
describe.runIf(dbKinds.includes('postgres'))('simultaneous snapshots with one label on postgres', () => {
  const lines: { level: number; msg?: string }[] = [];
  let test: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({
      config: test.config,
      db: test.db,
      jobs: new InProcessJobRunner(test.db, pino({ level: 'silent' })),
      logger: pino({ level: 'info' }, stream),
    });
    await app.ready();
    await createOrg(test.db.em(), { orgId: 'race', name: 'Race' });
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('give one 201 and 409 for the rest, never 503, and log no outage', async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: '/api/v1/orgs/race/compliance/snapshot',
          headers: { authorization: `Bearer ${ADMIN_KEY}` },
          payload: { label: 'year end' },
        }),
      ),
    );
    const statuses = responses.map((res) => res.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of responses.filter((res) => res.statusCode === 409)) {
      expect(res.json().error).toMatchObject({ code: 'CONFLICT', details: { label: 'year end' } });
    }
    // pino levels: 40 warn, 50 error.
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
  });
});
