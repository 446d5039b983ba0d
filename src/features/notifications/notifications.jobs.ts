import type { Config } from '../../platform/config.js';
import type { JobDefinition, JobRunner } from '../../platform/jobs/jobs.js';
import { attemptDelivery, WEBHOOK_RETRIES } from './delivery.service.js';
import { sendDigests } from './digest.service.js';
import { type DeliveryTarget, dispatchEvents, requeueStalled } from './dispatch.service.js';
import { scanOrgs } from './due-scan.service.js';

/**
 * One webhook delivery (`webhook-delivery`): an attempt, logged; a failure throws so that the queue retries it
 * with exponential backoff, 12 times over about a day with the default backoff. I/O-bound, so a worker runs
 * many at once.
 */
export const webhookDeliveryJob: JobDefinition<DeliveryTarget, string> = {
  name: 'webhook-delivery',
  attempts: WEBHOOK_RETRIES,
  backoffMs: 21_000,
  concurrency: 32,
  handle: (target, ctx) => attemptDelivery(ctx.db, target, ctx.config.webhooks, ctx.log),
};

/** The delivery job with the configured backoff (the queue takes a job's retry policy from who queues it). */
export const deliveryJobFor = (config: Pick<Config, 'webhooks'>): JobDefinition<DeliveryTarget, string> => ({
  ...webhookDeliveryJob,
  backoffMs: config.webhooks.backoffMs,
});

export interface DispatchPayload {
  /** One org (after a write to it); every org when absent (the schedule). */
  orgId?: string;
}

/**
 * The dispatcher (`webhook-dispatch`): hands the audit events webhooks have not read over as deliveries and
 * queues them; the scheduled run also queues again deliveries whose job was lost. Idempotent.
 */
export const webhookDispatchJob: JobDefinition<DispatchPayload, { queued: number; requeued: number }> = {
  name: 'webhook-dispatch',
  attempts: 2,
  backoffMs: 500,
  handle: async (payload, ctx) => {
    const em = ctx.db.em();
    const deliveryJob = deliveryJobFor(ctx.config);
    const queued = await dispatchEvents(em, ctx.jobs, deliveryJob, payload.orgId);
    const requeued = payload.orgId === undefined ? await requeueStalled(em, ctx.jobs, deliveryJob) : 0;
    return { queued, requeued };
  },
};

/**
 * The scan of what is due (`notifications-due-scan`): emits due-soon, overdue and needs-acceptance events once
 * (see due-scan.service.ts), then wakes the dispatcher for the orgs that got some.
 */
export const dueScanJob: JobDefinition<{ orgId?: string; now?: number }, { orgs: string[] }> = {
  name: 'notifications-due-scan',
  attempts: 2,
  backoffMs: 5000,
  handle: async (payload, ctx) => {
    const orgs = await scanOrgs(ctx.db.em(), payload.orgId, payload.now);
    await Promise.all(orgs.map((orgId) => ctx.jobs.enqueue(webhookDispatchJob, { orgId })));
    return { orgs };
  },
};

/** The daily digest (`notifications-digest`): runs often, sends each member's digest once a day. */
export const digestJob: JobDefinition<{ orgId?: string; now?: number }, { sent: number }> = {
  name: 'notifications-digest',
  attempts: 1,
  backoffMs: 60_000,
  handle: async (payload, ctx) => {
    if (!ctx.config.mail) {
      ctx.log.warn('the digest job ran where COMPLY_SMTP_URL is not set: nothing sent');
      return { sent: 0 };
    }
    const sent = await sendDigests(ctx.db.em(), ctx.config.mail, {
      publicUrl: ctx.config.publicUrl,
      log: ctx.log,
      orgId: payload.orgId,
      now: payload.now === undefined ? undefined : new Date(payload.now),
    });
    if (sent) ctx.log.info({ sent }, 'sent the daily digests');
    return { sent };
  },
};

export const notificationJobs: readonly JobDefinition[] = [
  webhookDispatchJob,
  webhookDeliveryJob,
  dueScanJob,
  digestJob,
];

/** How often the dispatcher runs by itself (writes through the API wake it at once). */
export const DISPATCH_EVERY_MS = 10_000;
export const DUE_SCAN_EVERY_MS = 5 * 60_000;
export const DIGEST_EVERY_MS = 15 * 60_000;

/** Registers the repeatable notification jobs (stable ids: restarts and other daemons do not stack them). */
export async function scheduleNotifications(jobs: JobRunner, config: Pick<Config, 'mail'>): Promise<void> {
  await jobs.repeat(webhookDispatchJob, {}, { jobId: 'webhook-dispatch', everyMs: DISPATCH_EVERY_MS });
  await jobs.repeat(dueScanJob, {}, { jobId: 'notifications-due-scan', everyMs: DUE_SCAN_EVERY_MS });
  if (config.mail)
    await jobs.repeat(digestJob, {}, { jobId: 'notifications-digest', everyMs: DIGEST_EVERY_MS });
  await jobs.enqueue(dueScanJob, {});
}
