import { loadConfig } from '../../../platform/config.js';
import { runWorkerProcess } from '../../../worker.js';
import { asCliErrors } from './errors.js';

/** `comply worker`: the job workers in this process. */
export function runWorker(): Promise<void> {
  return asCliErrors(() => runWorkerProcess(loadConfig()));
}
