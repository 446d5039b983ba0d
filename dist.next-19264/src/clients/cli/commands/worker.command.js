export function registerWorkerCommand(program) {
    program
        .command('worker')
        .description('run the job workers (needs DATABASE_URL for PostgreSQL and REDIS_URL)')
        .action(async () => {
        // Loaded on demand so that the HTTP-only commands start fast and never load the server.
        const { runWorker } = await import('../daemon/worker.js');
        await runWorker();
    });
}
//# sourceMappingURL=worker.command.js.map