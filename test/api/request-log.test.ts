import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { ADMIN_KEY, openTestDatabase, type TestDatabase } from '../support/app.js';

/** The request log as the daemon writes it (pino at info), captured line by line. */
describe('request log', () => {
  const lines: string[] = [];
  let test: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
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
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it.each([
    ['a key', '/api/v1/controls?api_key=cmp_LEAKED0001&search=ok'],
    ['a token', '/api/v1/controls?search=ok&access_token=LEAKED0002'],
    ['a secret on an unknown route', '/api/v1/nothing?client_secret=LEAKED0003'],
    ['a key with an odd spelling', '/api/v1/controls?X-API-Key=LEAKED0004&Authorization=LEAKED0005'],
  ])('never writes %s given in the query string', async (_case, url) => {
    lines.length = 0;
    await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    const path = url.slice(0, url.indexOf('?'));
    expect(lines.join('\n')).toContain(path);
    expect(lines.join('\n')).not.toMatch(/LEAKED/);
  });

  it('keeps query values that are not secrets, so that a request can be told from another', async () => {
    lines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/api/v1/controls?search=retention&api_key=LEAKED0006',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    const incoming = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'incoming request');
    expect(incoming.req.url).toBe('/api/v1/controls?search=retention&api_key=[REDACTED]');
  });

  it('never writes the bearer key of a request', async () => {
    lines.length = 0;
    await app.inject({
      method: 'GET',
      url: '/api/v1/controls',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(ADMIN_KEY);
  });
});
