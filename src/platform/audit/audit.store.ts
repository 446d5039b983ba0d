/**
 * The audit trail: the only module that reads `audit_events` or appends to it from code. Changes to audited
 * tables are appended by the database's triggers (Migration20261128000200People); this module appends the
 * events no table row stands for (sign-ins), reads the log, and walks a chain for verification.
 */
import type { Em } from '../db/database.js';
import { toIso } from '../db/instant.js';

/** The platform's chain: sign-ins, people, and what every org shares (imported frameworks, analyst edges). */
export const PLATFORM_CHAIN = '';

export interface AuditActor {
  type: 'user' | 'key' | 'system';
  id: string;
  name: string;
}

export interface AuditEvent {
  eventId: string;
  seq: number;
  at: string;
  actor: AuditActor;
  action: string;
  resource: { type: string; id: string };
  changes?: Record<string, { from: unknown; to: unknown }>;
  requestId: string | null;
  prevHash: string;
  hash: string;
}

interface EventRow {
  eventId: string;
  seq: string | number;
  at: Date | string;
  actor: AuditActor;
  action: string;
  resourceType: string;
  resourceId: string;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  requestId: string | null;
  prevHash: string;
  hash: string;
}

const COLUMNS = `event_id as "eventId", seq, at, actor, action, resource_type as "resourceType",
  resource_id as "resourceId", changes, request_id as "requestId", prev_hash as "prevHash", hash`;

const toEvent = (row: EventRow): AuditEvent => ({
  eventId: row.eventId,
  seq: Number(row.seq),
  at: toIso(row.at),
  actor: row.actor,
  action: row.action,
  resource: { type: row.resourceType, id: row.resourceId },
  ...(row.changes ? { changes: row.changes } : {}),
  requestId: row.requestId,
  prevHash: row.prevHash,
  hash: row.hash,
});

/** Appends an event that no audited row stands for, in the caller's transaction. */
export async function appendEvent(
  em: Em,
  chain: string,
  event: {
    actor: AuditActor;
    action: string;
    resource: { type: string; id: string };
    changes?: Record<string, { from: unknown; to: unknown }>;
    requestId: string | null;
  },
): Promise<void> {
  await em.execute('select comply_audit_append(?, ?::jsonb, ?, ?, ?, ?::jsonb, ?)', [
    chain,
    JSON.stringify(event.actor),
    event.action,
    event.resource.type,
    event.resource.id,
    event.changes ? JSON.stringify(event.changes) : null,
    event.requestId,
  ]);
}

export interface AuditFilter {
  from?: Date;
  to?: Date;
  actorId?: string;
  action?: string;
  resourceType?: string;
  /** Events older than this sequence number (the previous page's cursor). */
  beforeSeq?: number;
  limit: number;
}

/** A chain's events matching the filter, newest first, one more than the limit (to tell if a page follows). */
export async function selectEvents(em: Em, chain: string, filter: AuditFilter): Promise<AuditEvent[]> {
  const where = ['chain = ?'];
  const params: unknown[] = [chain];
  if (filter.from) where.push('at >= ?') && params.push(filter.from);
  if (filter.to) where.push('at < ?') && params.push(filter.to);
  if (filter.actorId) where.push(`actor ->> 'id' = ?`) && params.push(filter.actorId);
  // An action names one (`requirement.updated`) or, ending in a dot, a family (`member.`).
  if (filter.action) {
    if (filter.action.endsWith('.')) where.push('starts_with(action, ?)') && params.push(filter.action);
    else where.push('action = ?') && params.push(filter.action);
  }
  if (filter.resourceType) where.push('resource_type = ?') && params.push(filter.resourceType);
  if (filter.beforeSeq !== undefined) where.push('seq < ?') && params.push(filter.beforeSeq);
  const rows = await em.execute<EventRow[]>(
    `select ${COLUMNS} from audit_events where ${where.join(' and ')} order by seq desc limit ?`,
    [...params, filter.limit + 1],
  );
  return rows.map(toEvent);
}

/** A page of a chain in order, from a sequence number on (verification walks the chain page by page). */
export async function selectChainPage(
  em: Em,
  chain: string,
  afterSeq: number,
  limit: number,
): Promise<AuditEvent[]> {
  const rows = await em.execute<EventRow[]>(
    `select ${COLUMNS} from audit_events where chain = ? and seq > ? order by seq limit ?`,
    [chain, afterSeq, limit],
  );
  return rows.map(toEvent);
}

/** The chain's head as the appender keeps it: the last sequence number and its hash (null before any event). */
export async function selectHead(em: Em, chain: string): Promise<{ seq: number; hash: string } | null> {
  const [row] = await em.execute<{ seq: string | number; hash: string }[]>(
    'select seq, hash from audit_heads where chain = ?',
    [chain],
  );
  return row ? { seq: Number(row.seq), hash: row.hash } : null;
}

/**
 * Names who acts for the rest of the transaction, when it is learnt inside it (a person accepting an
 * invitation is known only once the token is used). Elsewhere `Database.actingAs` names the request's principal.
 */
export async function actAs(tx: Em, actor: AuditActor, requestId: string | null): Promise<void> {
  await tx.execute(`select set_config('comply.actor', ?, true), set_config('comply.request_id', ?, true)`, [
    JSON.stringify(actor),
    requestId ?? '',
  ]);
}
