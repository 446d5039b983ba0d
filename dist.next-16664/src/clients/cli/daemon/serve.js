import { loadConfig } from '../../../platform/config.js';
import { closeOnSignal } from '../../../platform/shutdown.js';
import { startServer } from '../../../server.js';
import { asCliErrors } from './errors.js';
/** `comply serve`: the daemon in this process, until a signal stops it. */
export function serve() {
    return asCliErrors(async () => {
        const started = startServer(loadConfig());
        closeOnSignal(started, (server, signal) => server.app.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs'));
        await started;
    });
}
//# sourceMappingURL=serve.js.map