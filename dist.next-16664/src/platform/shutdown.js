/**
 * Closes what `started` resolves to on SIGTERM or SIGINT, then exits 0 (1 if closing fails).
 * Call it before awaiting `started`: a signal that arrives while the process is still starting
 * (or just after it announced itself ready) must be a graceful stop, not the default kill.
 */
export function closeOnSignal(started, announce) {
    const stop = async (signal) => {
        try {
            const running = await started;
            announce(running, signal);
            await running.close();
            process.exit(0);
        }
        catch {
            // A failed start is reported by whoever awaits `started`.
            process.exit(1);
        }
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
}
//# sourceMappingURL=shutdown.js.map