import type { Command } from 'commander';
import { loadConfig } from '../../../platform/config.js';

export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the job workers (needs DATABASE_URL for PostgreSQL and REDIS_URL)')
    .action(async () => {
      const config = loadConfig();
      // Loaded on demand so that the HTTP-only commands start fast.
      const { runWorkerProcess } = await import('../../../worker.js');
      await runWorkerProcess(config);
    });
}
