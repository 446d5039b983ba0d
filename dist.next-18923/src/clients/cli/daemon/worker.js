import { loadConfig } from '../../../platform/config.js';
import { runWorkerProcess } from '../../../worker.js';
import { asCliErrors } from './errors.js';
/** `comply worker`: the job workers in this process. */
export function runWorker() {
    return asCliErrors(() => runWorkerProcess(loadConfig()));
}
//# sourceMappingURL=worker.js.map