import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { openTestDatabase, type TestDatabase } from '../support/app.js';

/** Sends raw bytes and reads until the server closes the connection. */
function exchange(port: number, chunks: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => {
      received += data;
    });
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

function parse(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 2),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

/** Responses the server writes itself, before or after any route runs, use the error envelope too. */
describe('responses outside the routes', () => {
  let testDb: TestDatabase;
  let jobs: InProcessJobRunner;
  let app: FastifyInstance;
  let port: number;
  const signal = () => {
    let resolve = () => {};
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  };
  const closing = signal();
  const entered = signal();
  const gate = signal();
  const refused = signal();

  beforeAll(async () => {
    testDb = await openTestDatabase('pglite');
    jobs = new InProcessJobRunner(testDb.db, pino({ level: 'silent' }));
    app = await buildApp({ config: testDb.config, db: testDb.db, jobs });
    // A request that is still running when closing begins, and a way to see the refusal go out.
    app.get('/test/slow', { config: { public: true } }, async () => {
      entered.resolve();
      await gate.promise;
      return { finished: true };
    });
    app.addHook('onSend', async (_request, reply) => {
      if (reply.statusCode === 503) refused.resolve();
    });
    app.addHook('preClose', async () => closing.resolve());
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as net.AddressInfo).port;
  }, 60_000);
  afterAll(async () => {
    gate.resolve();
    await app.close();
    await jobs.close();
    await testDb.close();
  });

  it('answers a request head over 16 KiB with 431 in the envelope', async () => {
    const raw = await exchange(port, [
      `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    const res = parse(raw);
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error).toMatchObject({
      code: 'HEADERS_TOO_LARGE',
      details: { reason: 'HPE_HEADER_OVERFLOW' },
    });
  });

  it.each([
    ['a broken Content-Length', 'POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['an invalid method', 'G@T /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a bad chunk size', 'POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ])('answers %s with 400 in the envelope', async (_name, request) => {
    const res = parse(await exchange(port, [request]));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.details.reason).toMatch(/^HPE_/);
  });

  it('answers requests that arrive while closing with the envelope 503 and Retry-After', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (data) => {
      received += data;
    });
    const ended = new Promise((resolve) => socket.once('end', resolve));
    socket.write('GET /test/slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await entered.promise;
    const closed = app.close();
    await closing.promise;
    // A second request on the open connection, arriving after closing began.
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await refused.promise;
    gate.resolve();
    await ended;
    await closed;
    const second = received.indexOf('HTTP/1.1', 1);
    const first = received.slice(0, second);
    expect(first).toMatch(/^HTTP\/1.1 200 /);
    expect(first).toContain('{"finished":true}');
    const res = parse(received.slice(second));
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.headers.connection).toBe('close');
    expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { reason: 'closing' } });
  });
});
