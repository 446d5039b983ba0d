import { ConfigError } from '../../../platform/config.js';
import { DataDirLockedError } from '../../../platform/db/lock.js';
import { CommandRefusedError, UsageError } from '../cli.js';
/**
 * Runs daemon-side work and turns the daemon's own refusals into the CLI's errors, so that main.ts maps
 * them to exit codes without importing the server: bad configuration is a usage error (exit 2), a data
 * directory another process holds is a refusal (exit 1).
 */
export async function asCliErrors(work) {
    try {
        return await work();
    }
    catch (error) {
        if (error instanceof ConfigError)
            throw new UsageError(error.message);
        if (error instanceof DataDirLockedError)
            throw new CommandRefusedError(error.message);
        throw error;
    }
}
//# sourceMappingURL=errors.js.map