import { rollupOrgs } from './rollup.service.js';
/**
 * Keeps the daily compliance roll-ups up to date. Scheduled as a repeatable job and enqueued on demand
 * when a history read finds them behind; idempotent, so duplicates and retries are harmless.
 */
export const complianceRollupJob = {
    name: 'compliance-rollup',
    attempts: 3,
    backoffMs: 1000,
    handle: (payload, ctx) => rollupOrgs(ctx.db.em(), { orgId: payload.orgId, progress: ctx.progress }),
};
/** How often the schedule runs: roll-ups lag a finished day by at most this much (plus the grace). */
export const ROLLUP_EVERY_MS = 15 * 60_000;
/** Stable id of the on-demand job for one org and day, so that repeated requests queue it once. */
export const rollupJobId = (orgId, day) => `compliance-rollup.${encodeURIComponent(orgId)}.${day}`;
/** Registers the repeatable roll-up and runs one now, to catch up on days that ended while stopped. */
export async function scheduleComplianceRollup(jobs) {
    await jobs.repeat(complianceRollupJob, {}, { jobId: 'compliance-rollup', everyMs: ROLLUP_EVERY_MS });
    await jobs.enqueue(complianceRollupJob, {});
}
//# sourceMappingURL=rollup.job.js.map