import { Command, CommanderError } from 'commander';
import { ApiError, ConnectionError } from '../api-client/client.js';
import { errorText } from '../api-client/format.js';
import { CommandRefusedError, createCli, UsageError } from './cli.js';
import { registerCommands } from './commands/index.js';
import { loadCliConfig } from './config.js';
/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, apiError: 1, usage: 2, unreachable: 3 };
export function buildProgram() {
    const program = new Command('comply')
        .description('Compliance management for AI systems: ISO/IEC 42001 controls, evidence, attestations, exports.')
        .option('--url <url>', 'daemon address (env COMPLY_URL, default http://127.0.0.1:8080)')
        .option('--api-key <key>', 'API key (env COMPLY_API_KEY)')
        .option('--org <orgId>', 'organization to act on (env COMPLY_ORG)')
        .option('--json', 'print the API response as JSON, for scripts and pipelines')
        .showHelpAfterError()
        .exitOverride();
    registerCommands(program, createCli(loadCliConfig()));
    return program;
}
function fail(message, code) {
    process.stderr.write(`error: ${message}\n`);
    process.exit(code);
}
export async function runCli(argv) {
    const program = buildProgram();
    try {
        await program.parseAsync(argv);
    }
    catch (error) {
        if (error instanceof CommanderError) {
            process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
        }
        if (error instanceof ApiError)
            fail(errorText(error), EXIT.apiError);
        if (error instanceof ConnectionError)
            fail(errorText(error), EXIT.unreachable);
        if (error instanceof UsageError)
            fail(error.message, EXIT.usage);
        if (error instanceof CommandRefusedError)
            fail(error.message, EXIT.apiError);
        throw error;
    }
}
//# sourceMappingURL=main.js.map