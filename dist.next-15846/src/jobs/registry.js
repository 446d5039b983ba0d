import { complianceRollupJob } from '../compliance/rollup.job.js';
import { cteEmbeddingsJob } from '../cte/embeddings.job.js';
import { exportJob } from '../exports/export.job.js';
/** Every kind of background work; `comply worker` serves each of them. Features append theirs here. */
export const jobRegistry = [complianceRollupJob, cteEmbeddingsJob, exportJob];
export const findJob = (name) => jobRegistry.find((job) => job.name === name);
//# sourceMappingURL=registry.js.map