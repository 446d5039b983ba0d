import type { Command } from 'commander';
import { loadConfig } from '../../../platform/config.js';
import { closeOnSignal } from '../../../platform/shutdown.js';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('run the daemon (PGlite in COMPLY_DATA_DIR, or PostgreSQL with DATABASE_URL)')
    .action(async () => {
      const config = loadConfig();
      // Loaded on demand so that the HTTP-only commands start fast.
      const { startServer } = await import('../../../server.js');
      const started = startServer(config);
      closeOnSignal(started, (server, signal) =>
        server.app.log.info({ signal }, 'shutting down: finishing in-flight requests and jobs'),
      );
      await started;
    });
}
