/**
 * Sending one webhook delivery, per the Standard Webhooks scheme: `webhook-id` (the audit event's id, the same
 * on every attempt, so receivers can drop duplicates), `webhook-timestamp` (seconds, this attempt's) and
 * `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the webhook's secret),
 * signed with the scheme's reference library. A 2xx answer delivers it; anything else (another status, a
 * refused address, a timeout) is logged and retried with backoff for about a day.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { Database } from '../../platform/db/database.js';
import { guardedLookup, isPublicAddress, parseReceiverUrl } from './webhook-address.js';
import { type AttemptOutcome, recordAttempt, selectDelivery, startAttempt } from './webhooks.store.js';

/** Retries after the first attempt: with the default backoff of 21 s doubling each time, about a day. */
export const WEBHOOK_RETRIES = 12;
export const WEBHOOK_ATTEMPTS = 1 + WEBHOOK_RETRIES;

/** Answers are read and dropped; a receiver is not asked for more than this much of it. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface DeliverySettings {
  allowPrivate: boolean;
  backoffMs: number;
  timeoutMs: number;
}

export class DeliveryFailedError extends Error {}

/** The delay before retry `attempt + 1` (as the job queue's exponential backoff computes it). */
export const retryDelayMs = (backoffMs: number, attempt: number) => backoffMs * 2 ** (attempt - 1);

function post(
  url: URL,
  headers: Record<string, string>,
  body: string,
  settings: DeliverySettings,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(settings.allowPrivate) as never,
        agent: false,
        timeout: settings.timeoutMs,
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('close', () => resolve(response.statusCode ?? 0));
        response.on('error', () => resolve(response.statusCode ?? 0));
      },
    );
    const deadline = setTimeout(
      () => request.destroy(new Error(`no answer within ${settings.timeoutMs} ms`)),
      settings.timeoutMs,
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${settings.timeoutMs} ms`)));
    request.on('error', reject);
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}

const errorText = (error: unknown) =>
  ((error as NodeJS.ErrnoException).code ? `${(error as NodeJS.ErrnoException).code}: ` : '') +
  (error as Error).message;

/**
 * Makes one attempt at a delivery and logs it. Resolves when the delivery is done with (delivered, failed for
 * good, or gone with its webhook); throws `DeliveryFailedError` when it should be tried again.
 */
export async function attemptDelivery(
  db: Database,
  target: { webhookId: string; eventId: string },
  settings: DeliverySettings,
  log: FastifyBaseLogger,
): Promise<AttemptOutcome | 'gone'> {
  const em = db.em();
  const delivery = await selectDelivery(em, target.webhookId, target.eventId);
  if (delivery?.state !== 'pending') return 'gone';
  const attempt = await startAttempt(em, target.webhookId, target.eventId, new Date());
  if (attempt === null) return 'gone';
  const started = performance.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const url = parseReceiverUrl(delivery.url);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // A literal address is never looked up, so the guarded lookup cannot see it: check it here.
    if (net.isIP(host) && !settings.allowPrivate && !isPublicAddress(host)) {
      throw new Error(`${host} is not a public address`);
    }
    const timestamp = new Date();
    const signature = new Webhook(delivery.secret).sign(delivery.eventId, timestamp, delivery.body);
    statusCode = await post(
      url,
      {
        'content-type': 'application/json',
        'user-agent': 'comply-webhooks/1',
        'webhook-id': delivery.eventId,
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      delivery.body,
      settings,
    );
    if (statusCode < 200 || statusCode > 299) error = `the receiver answered ${statusCode}`;
  } catch (caught) {
    error = errorText(caught).slice(0, 500);
  }
  const at = new Date();
  const outcome: AttemptOutcome =
    error === null ? 'delivered' : attempt >= WEBHOOK_ATTEMPTS ? 'failed' : 'retrying';
  await recordAttempt(em, {
    webhookId: delivery.webhookId,
    eventId: delivery.eventId,
    attempt,
    type: delivery.type,
    statusCode,
    error,
    durationMs: Math.round(performance.now() - started),
    outcome,
    at,
    nextAttemptAt: new Date(at.getTime() + retryDelayMs(settings.backoffMs, attempt)),
  });
  const context = { webhookId: delivery.webhookId, eventId: delivery.eventId, type: delivery.type, attempt };
  if (outcome === 'retrying') throw new DeliveryFailedError(`webhook delivery failed (${error}); retrying`);
  if (outcome === 'failed') log.warn({ ...context, error }, 'webhook delivery failed for good');
  return outcome;
}
