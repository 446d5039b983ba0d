import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, startDaemon } from '../support/daemon.js';

const MiB = 1024 * 1024;
const ROUTES = ['/api/v1/orgs', '/api/v1/orgs/acme/attestations', '/api/v1/orgs/acme/ai-systems'];

type Init = NonNullable<Parameters<typeof fetch>[1]>;

/**
 * A client still uploading a body over the 1 MiB limit must read the daemon's 400, not EPIPE: the daemon
 * answers, then keeps reading (and discarding) the rest of the upload for a bounded time before closing.
 * Node's own fetch, on the real daemon: before the lingering close, about one post in three failed.
 */
describe('a 12 MiB body against the 1 MiB limit', () => {
  let daemon: Daemon;
  beforeAll(async () => {
    daemon = await startDaemon();
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  const post = async (path: string, body: Init['body']) => {
    try {
      const res = await fetch(`${daemon.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as Init);
      const json = (await res.json()) as { error: { details: { reason?: string } } };
      return `${res.status} ${json.error.details.reason}`;
    } catch (error) {
      return `${(error as Error).message}: ${((error as Error).cause as Error | undefined)?.message}`;
    }
  };

  it('answers every upload with a declared length with the 400', async () => {
    const outcomes: string[] = [];
    for (const path of ROUTES) {
      for (let round = 0; round < 8; round += 1)
        outcomes.push(await post(path, Buffer.alloc(12 * MiB, 0x20)));
    }
    expect(outcomes).toEqual(outcomes.map(() => '400 FST_ERR_CTP_BODY_TOO_LARGE'));
  }, 120_000);

  it('answers a streamed (chunked) upload with the 400', async () => {
    const outcomes: string[] = [];
    for (const path of ROUTES) {
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= 12 * MiB) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      outcomes.push(await post(path, stream as Init['body']));
    }
    expect(outcomes).toEqual(outcomes.map(() => '400 FST_ERR_CTP_BODY_TOO_LARGE'));
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
