import { cteEmbeddingsJob } from './features/cte/search/embeddings.job.js';
import { exportJob } from './features/exports/export.job.js';
import { notificationJobs } from './features/notifications/notifications.jobs.js';
import { complianceRollupJob } from './features/scores/rollup.job.js';
import type { JobDefinition } from './platform/jobs/jobs.js';

/** Every kind of background work; `comply worker` serves each of them. Features append theirs here. */
export const jobRegistry: readonly JobDefinition[] = [
  complianceRollupJob,
  cteEmbeddingsJob,
  exportJob,
  ...notificationJobs,
];
