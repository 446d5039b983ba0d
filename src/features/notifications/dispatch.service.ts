/**
 * The dispatcher: turns the audit events each webhook has not yet read into deliveries. For each webhook behind
 * its org's trail it locks the webhook's cursor, reads the next events, records a delivery for each event the
 * webhook subscribes to and moves the cursor past them, all in one transaction; then it queues one job per new
 * delivery. A cursor another dispatcher holds is skipped (that one hands those events over), so daemons and
 * workers may dispatch at once; an event is recorded once (the cursor), and queued once (the job id).
 */
import { type AuditEvent, selectChainPage } from '../../platform/audit/audit.store.js';
import type { Em } from '../../platform/db/database.js';
import type { JobDefinition, JobRunner } from '../../platform/jobs/jobs.js';
import { webhookBody, webhookTypeOf } from './webhook-events.js';
import {
  advanceCursor,
  type CursorRow,
  insertDeliveries,
  lockCursor,
  type NewDelivery,
  selectCursorsBehind,
  takeStalledDeliveries,
} from './webhooks.store.js';

/** Events read per webhook and transaction. */
const BATCH = 500;
/** Jobs being queued at once: each is a round trip to the queue, each bounded in time on its own. */
const QUEUEING_WIDTH = 16;
/** Rounds of one dispatch: a webhook still behind after them is caught up by the next dispatch. */
const MAX_ROUNDS = 20;
/** A pending delivery whose next attempt is this late has lost its job (a daemon stopped): it is queued again. */
export const STALLED_AFTER_MS = 5 * 60_000;

export interface DeliveryTarget {
  webhookId: string;
  eventId: string;
}

/**
 * The queue's id of a delivery's job, the same from every dispatcher, so the queue holds it once. (BullMQ takes
 * no ':' in a custom id, hence the dot between webhook and event.)
 */
export const jobIdOf = (webhookId: string, eventId: string) => `webhook.${webhookId}.${eventId}`;

/** Queues the jobs, `QUEUEING_WIDTH` at a time. */
async function queueAll(
  jobs: JobRunner,
  deliveryJob: JobDefinition<DeliveryTarget>,
  targets: { target: DeliveryTarget; jobId: string }[],
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(QUEUEING_WIDTH, targets.length) }, async () => {
      while (next < targets.length) {
        const { target, jobId } = targets[next++];
        await jobs.enqueue(deliveryJob, target, { jobId });
      }
    }),
  );
}

function deliveriesOf(cursor: CursorRow, events: AuditEvent[]): NewDelivery[] {
  const wanted = new Set(cursor.events);
  return events.flatMap((event) => {
    const type = webhookTypeOf(event);
    if (!type || !wanted.has(type)) return [];
    return [
      {
        eventId: event.eventId,
        seq: event.seq,
        type,
        body: JSON.stringify(webhookBody(cursor.orgId, type, event)),
      },
    ];
  });
}

/** Hands one batch of a webhook's events over; null when another dispatcher holds its cursor. */
async function handOver(em: Em, cursor: CursorRow): Promise<{ created: string[]; read: number } | null> {
  return em.transactional(async (tx) => {
    const lastSeq = await lockCursor(tx, cursor.webhookId);
    if (lastSeq === null) return null;
    const events = await selectChainPage(tx, cursor.orgId, lastSeq, BATCH);
    if (events.length === 0) return { created: [], read: 0 };
    const now = new Date();
    const created = await insertDeliveries(tx, cursor, deliveriesOf(cursor, events), now);
    await advanceCursor(tx, cursor.webhookId, events[events.length - 1].seq, now);
    return { created, read: events.length };
  });
}

/**
 * Dispatches every webhook behind (of one org when given) until none is, or the rounds run out; queues each new
 * delivery with `deliveryJob`. Returns how many deliveries it queued.
 */
export async function dispatchEvents(
  em: Em,
  jobs: JobRunner,
  deliveryJob: JobDefinition<DeliveryTarget>,
  orgId?: string,
): Promise<number> {
  let queued = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const behind = await selectCursorsBehind(em, orgId);
    if (behind.length === 0) break;
    let progressed = false;
    for (const cursor of behind) {
      const result = await handOver(em, cursor);
      if (!result) continue;
      progressed ||= result.read > 0;
      await queueAll(
        jobs,
        deliveryJob,
        result.created.map((eventId) => ({
          target: { webhookId: cursor.webhookId, eventId },
          jobId: jobIdOf(cursor.webhookId, eventId),
        })),
      );
      queued += result.created.length;
    }
    // Every cursor behind is held by another dispatcher: it hands those events over.
    if (!progressed) break;
  }
  return queued;
}

/** Queues again the pending deliveries whose job was lost (see `STALLED_AFTER_MS`). */
export async function requeueStalled(
  em: Em,
  jobs: JobRunner,
  deliveryJob: JobDefinition<DeliveryTarget>,
  now = new Date(),
): Promise<number> {
  const stalled = await em.transactional((tx) =>
    takeStalledDeliveries(tx, new Date(now.getTime() - STALLED_AFTER_MS), now, 1000),
  );
  await Promise.all(
    stalled.map((target) =>
      // A job id of its own: the lost job's id may still be held by the queue (failed jobs are kept).
      jobs.enqueue(deliveryJob, target, {
        jobId: `${jobIdOf(target.webhookId, target.eventId)}.${now.getTime()}`,
      }),
    ),
  );
  return stalled.length;
}
