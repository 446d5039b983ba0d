import { cteEmbeddingsJob } from './features/cte/search/embeddings.job.js';
import { exportJob } from './features/exports/export.job.js';
import { complianceRollupJob } from './features/scores/rollup.job.js';
/** Every kind of background work; `comply worker` serves each of them. Features append theirs here. */
export const jobRegistry = [complianceRollupJob, cteEmbeddingsJob, exportJob];
//# sourceMappingURL=job-registry.js.map