import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  /** Epoch ms at which the request arrived. */
  at: number;
}

/**
 * A real HTTP receiver on the loopback interface: it records every POST and answers each with the next status
 * of `statuses` (200 once they run out).
 */
export class Receiver {
  readonly received: Received[] = [];
  private readonly server: http.Server;
  private readonly waiters = new Set<() => void>();
  private statuses: number[] = [];

  constructor() {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({
          headers: Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
          ),
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        });
        response.statusCode = this.statuses.shift() ?? 200;
        response.end('ok');
        for (const wake of this.waiters) wake();
      });
    });
  }

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The next answers, in order (e.g. [500] fails the first request). */
  answer(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  /** The parsed bodies received so far. */
  bodies<T = { type: string; timestamp: string; data: Record<string, unknown> }>(): T[] {
    return this.received.map((request) => JSON.parse(request.body) as T);
  }

  /** Waits until `count` requests matching have arrived (at most `timeoutMs`). */
  async waitFor(matches: (request: Received) => boolean, count = 1, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.filter(matches);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`waited ${timeoutMs} ms for ${count} request(s), got ${found.length}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 200));
        this.waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Requests of one type. */
export const ofType = (type: string) => (request: Received) => JSON.parse(request.body).type === type;
