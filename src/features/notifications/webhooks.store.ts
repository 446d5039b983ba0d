/**
 * Webhooks and their deliveries: the only module that reads or writes `webhooks`, `webhook_cursors`,
 * `webhook_deliveries` and `webhook_attempts`.
 *
 * A webhook reads its org's audit trail as an outbox: its cursor is the last sequence number it has turned
 * into deliveries, advanced in the same transaction that records them, so an event is handed over once and
 * never skipped, whoever dispatches and however often.
 */
import type { Em } from '../../platform/db/database.js';
import { toIso } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';

export interface WebhookRow {
  webhookId: string;
  orgId: string;
  url: string;
  events: string[];
  description: string | null;
  createdBy: string | null;
  createdAt: string;
}

/** A webhook with its signing secret: only the delivery reads this. */
export interface SigningWebhookRow extends WebhookRow {
  secret: string;
}

const WEBHOOK_COLUMNS = `webhook_id as "webhookId", org_id as "orgId", url, events, description,
  created_by as "createdBy", created_at as "createdAt"`;

const toWebhook = <T extends WebhookRow>(row: T): T => ({ ...row, createdAt: toIso(row.createdAt) });

/**
 * Adds a webhook and its cursor, placed at the org's latest event: a webhook hears of what happens after
 * it exists, not of the org's history.
 */
export async function insertWebhook(
  em: Em,
  webhook: Omit<WebhookRow, 'createdAt'> & { secret: string },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into webhooks (webhook_id, org_id, url, events, description, secret, created_by, created_at)
     values (?, ?, ?, ?::text[], ?, ?, ?, ?)`,
    [
      webhook.webhookId,
      webhook.orgId,
      webhook.url,
      textArray(webhook.events),
      webhook.description,
      webhook.secret,
      webhook.createdBy,
      now,
    ],
  );
  await em.execute(
    `insert into webhook_cursors (webhook_id, org_id, last_seq, updated_at)
     values (?, ?, coalesce((select seq from audit_heads where chain = ?), 0), ?)`,
    [webhook.webhookId, webhook.orgId, webhook.orgId, now],
  );
}

export async function countWebhooks(em: Em, orgId: string): Promise<number> {
  const [row] = await em.execute<{ count: string | number }[]>(
    'select count(*) as count from webhooks where org_id = ?',
    [orgId],
  );
  return Number(row.count);
}

export async function selectWebhooks(em: Em, orgId: string): Promise<WebhookRow[]> {
  const rows = await em.execute<WebhookRow[]>(
    `select ${WEBHOOK_COLUMNS} from webhooks where org_id = ? order by created_at, webhook_id`,
    [orgId],
  );
  return rows.map(toWebhook);
}

export async function selectWebhook(em: Em, orgId: string, webhookId: string): Promise<WebhookRow | null> {
  const [row] = await em.execute<WebhookRow[]>(
    `select ${WEBHOOK_COLUMNS} from webhooks where org_id = ? and webhook_id = ?`,
    [orgId, webhookId],
  );
  return row ? toWebhook(row) : null;
}

/** Removes a webhook with its cursor, pending deliveries and log; false when the org has no such webhook. */
export async function deleteWebhook(em: Em, orgId: string, webhookId: string): Promise<boolean> {
  const rows = await em.execute<{ webhookId: string }[]>(
    'delete from webhooks where org_id = ? and webhook_id = ? returning webhook_id as "webhookId"',
    [orgId, webhookId],
  );
  return rows.length > 0;
}

/** Whether any webhook of the org exists (a write on an org without one need not wake the dispatcher). */
export async function orgHasWebhooks(em: Em, orgId: string): Promise<boolean> {
  const rows = await em.execute('select 1 from webhooks where org_id = ? limit 1', [orgId]);
  return rows.length > 0;
}

export interface CursorRow {
  webhookId: string;
  orgId: string;
  lastSeq: number;
  events: string[];
}

/** Webhooks whose cursor is behind their org's latest event (of one org when given). */
export async function selectCursorsBehind(em: Em, orgId?: string): Promise<CursorRow[]> {
  const rows = await em.execute<(Omit<CursorRow, 'lastSeq'> & { lastSeq: string | number })[]>(
    `select c.webhook_id as "webhookId", c.org_id as "orgId", c.last_seq as "lastSeq", w.events
     from webhook_cursors c
     join audit_heads h on h.chain = c.org_id
     join webhooks w on w.webhook_id = c.webhook_id
     where h.seq > c.last_seq${orgId === undefined ? '' : ' and c.org_id = ?'}
     order by c.org_id, c.webhook_id`,
    orgId === undefined ? [] : [orgId],
  );
  return rows.map((row) => ({ ...row, lastSeq: Number(row.lastSeq) }));
}

/**
 * Locks a webhook's cursor for the transaction and returns where it stands; null when another dispatcher
 * holds it (that one hands the events over) or the webhook is gone.
 */
export async function lockCursor(em: Em, webhookId: string): Promise<number | null> {
  const [row] = await em.execute<{ lastSeq: string | number }[]>(
    'select last_seq as "lastSeq" from webhook_cursors where webhook_id = ? for update skip locked',
    [webhookId],
  );
  return row ? Number(row.lastSeq) : null;
}

export async function advanceCursor(em: Em, webhookId: string, lastSeq: number, now: Date): Promise<void> {
  await em.execute('update webhook_cursors set last_seq = ?, updated_at = ? where webhook_id = ?', [
    lastSeq,
    now,
    webhookId,
  ]);
}

export interface NewDelivery {
  eventId: string;
  seq: number;
  type: string;
  body: string;
}

/** Records deliveries to make (an event already handed over is left as it is); returns the new ones' event ids. */
export async function insertDeliveries(
  em: Em,
  webhook: { webhookId: string; orgId: string },
  deliveries: NewDelivery[],
  now: Date,
): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const rows = await em.execute<{ eventId: string }[]>(
    `insert into webhook_deliveries (webhook_id, event_id, org_id, seq, type, body, state, next_attempt_at, created_at)
     select ?, d.event_id, ?, d.seq, d.type, d.body, 'pending', ?, ?
     from jsonb_to_recordset(?::jsonb) as d(event_id text, seq bigint, type text, body text)
     on conflict (webhook_id, event_id) do nothing
     returning event_id as "eventId"`,
    [
      webhook.webhookId,
      webhook.orgId,
      now,
      now,
      JSON.stringify(
        deliveries.map((delivery) => ({
          event_id: delivery.eventId,
          seq: delivery.seq,
          type: delivery.type,
          body: delivery.body,
        })),
      ),
    ],
  );
  return rows.map((row) => row.eventId);
}

export interface DeliveryRow {
  webhookId: string;
  eventId: string;
  orgId: string;
  type: string;
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  createdAt: string;
  url: string;
  secret: string;
}

/** A delivery with what sending it takes (its webhook's address and secret); null when gone. */
export async function selectDelivery(
  em: Em,
  webhookId: string,
  eventId: string,
): Promise<DeliveryRow | null> {
  const [row] = await em.execute<DeliveryRow[]>(
    `select d.webhook_id as "webhookId", d.event_id as "eventId", d.org_id as "orgId", d.type, d.body, d.state,
       d.attempts, d.created_at as "createdAt", w.url, w.secret
     from webhook_deliveries d join webhooks w on w.webhook_id = d.webhook_id
     where d.webhook_id = ? and d.event_id = ?`,
    [webhookId, eventId],
  );
  return row ? { ...row, createdAt: toIso(row.createdAt) } : null;
}

/** Counts an attempt about to be made; its number (1 for the first), or null when the delivery is no longer pending. */
export async function startAttempt(
  em: Em,
  webhookId: string,
  eventId: string,
  now: Date,
): Promise<number | null> {
  const [row] = await em.execute<{ attempts: number }[]>(
    `update webhook_deliveries set attempts = attempts + 1, next_attempt_at = ?
     where webhook_id = ? and event_id = ? and state = 'pending' returning attempts`,
    [now, webhookId, eventId],
  );
  return row ? Number(row.attempts) : null;
}

export type AttemptOutcome = 'delivered' | 'retrying' | 'failed';

export interface AttemptRecord {
  webhookId: string;
  eventId: string;
  attempt: number;
  type: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  outcome: AttemptOutcome;
  at: Date;
  /** When a retry is due (outcome `retrying`). */
  nextAttemptAt?: Date;
}

/** Logs an attempt and moves its delivery on: delivered, failed for good, or pending until the next attempt. */
export async function recordAttempt(em: Em, attempt: AttemptRecord): Promise<void> {
  await em.execute(
    // A webhook removed while its delivery was under way takes its log with it: the attempt is dropped.
    `insert into webhook_attempts (webhook_id, event_id, attempt, type, status_code, error, duration_ms, outcome, at)
     select ?, ?, ?, ?, ?, ?, ?, ?, ? where exists (select 1 from webhooks where webhook_id = ?)
     on conflict do nothing`,
    [
      attempt.webhookId,
      attempt.eventId,
      attempt.attempt,
      attempt.type,
      attempt.statusCode,
      attempt.error,
      attempt.durationMs,
      attempt.outcome,
      attempt.at,
      attempt.webhookId,
    ],
  );
  if (attempt.outcome === 'retrying') {
    await em.execute(
      `update webhook_deliveries set next_attempt_at = ? where webhook_id = ? and event_id = ? and state = 'pending'`,
      [attempt.nextAttemptAt ?? attempt.at, attempt.webhookId, attempt.eventId],
    );
  } else {
    await em.execute(
      `update webhook_deliveries set state = ?, finished_at = ? where webhook_id = ? and event_id = ? and state = 'pending'`,
      [attempt.outcome, attempt.at, attempt.webhookId, attempt.eventId],
    );
  }
}

/**
 * Pending deliveries whose next attempt is overdue by more than the grace: their job was lost (a daemon
 * running jobs in-process stopped). Each is moved to now, so that it is picked up once per grace period.
 */
export async function takeStalledDeliveries(
  em: Em,
  before: Date,
  now: Date,
  limit: number,
): Promise<{ webhookId: string; eventId: string }[]> {
  return em.execute<{ webhookId: string; eventId: string }[]>(
    `update webhook_deliveries set next_attempt_at = ?
     where (webhook_id, event_id) in (
       select webhook_id, event_id from webhook_deliveries
       where state = 'pending' and next_attempt_at < ? order by next_attempt_at limit ? for update skip locked)
     returning webhook_id as "webhookId", event_id as "eventId"`,
    [now, before, limit],
  );
}

export interface AttemptRow {
  eventId: string;
  type: string;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  outcome: AttemptOutcome;
  at: string;
}

/** A page of a webhook's delivery log, newest first, and how many attempts it holds. */
export async function selectAttempts(
  em: Em,
  webhookId: string,
  page: { limit: number; offset: number },
): Promise<{ attempts: AttemptRow[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    em.execute<AttemptRow[]>(
      `select event_id as "eventId", type, attempt, status_code as "statusCode", error, duration_ms as "durationMs",
         outcome, at
       from webhook_attempts where webhook_id = ? order by at desc, event_id, attempt desc limit ? offset ?`,
      [webhookId, page.limit, page.offset],
    ),
    em.execute<{ count: string | number }[]>(
      'select count(*) as count from webhook_attempts where webhook_id = ?',
      [webhookId],
    ),
  ]);
  return {
    attempts: rows.map((row) => ({ ...row, at: toIso(row.at), durationMs: Number(row.durationMs) })),
    total: Number(count.count),
  };
}
