export function registerServeCommand(program) {
    program
        .command('serve')
        .description('run the daemon (PGlite in COMPLY_DATA_DIR, or PostgreSQL with DATABASE_URL)')
        .action(async () => {
        // Loaded on demand so that the HTTP-only commands start fast and never load the server.
        const { serve } = await import('../daemon/serve.js');
        await serve();
    });
}
//# sourceMappingURL=serve.command.js.map