import { ConfigError, loadConfig } from '../src/platform/config.js';
import { runWorkerProcess } from '../src/worker.js';
/** Entry of a worker process (also `comply worker`): needs DATABASE_URL (PostgreSQL) and REDIS_URL. */
try {
    await runWorkerProcess(loadConfig());
}
catch (error) {
    if (!(error instanceof ConfigError))
        throw error;
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(2);
}
//# sourceMappingURL=worker.js.map