import { complianceRollupJob } from '../compliance/rollup.job.js';
import { cteEmbeddingsJob } from '../cte/embeddings.job.js';
import { exportJob } from '../exports/export.job.js';
import type { JobDefinition } from './jobs.js';

/** Every kind of background work; `comply worker` serves each of them. Features append theirs here. */
export const jobRegistry: readonly JobDefinition[] = [complianceRollupJob, cteEmbeddingsJob, exportJob];

export const findJob = (name: string) => jobRegistry.find((job) => job.name === name);
