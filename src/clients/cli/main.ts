import { Command, CommanderError } from 'commander';
import { ApiError, ConnectionError } from '../api-client/client.js';
import { errorText } from '../api-client/format.js';
import { type Cli, CommandRefusedError, createCli, UsageError } from './cli.js';
import { registerCommands } from './commands/index.js';
import { loadCliConfig } from './config.js';
import { apiErrorJson, apiErrorText, usageText } from './explain.js';

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, apiError: 1, usage: 2, unreachable: 3 } as const;

export function buildProgram(cli: Cli = createCli(loadCliConfig())): Command {
  const program = new Command('comply')
    .description(
      'Compliance management for AI systems: ISO/IEC 42001 controls, evidence, attestations, exports.',
    )
    .option('--url <url>', 'daemon address (env COMPLY_URL, default http://127.0.0.1:8080)')
    .option('--api-key <key>', 'API key (env COMPLY_API_KEY)')
    .option('--org <orgId>', 'organization to act on (env COMPLY_ORG)')
    .option('--json', 'print the API response as JSON, for scripts and pipelines')
    // A refused value in words (usageText), then where the usage is rather than all of it.
    .configureOutput({ outputError: (text, write) => write(usageText(text)) })
    .showHelpAfterError('(add --help for usage)')
    .exitOverride();
  registerCommands(program, cli);
  return program;
}

function fail(message: string, code: number): never {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

export async function runCli(argv: string[]): Promise<void> {
  const cli = createCli(loadCliConfig());
  const program = buildProgram(cli);
  // The command whose action runs: its options name the fields the daemon may refuse.
  let ran: Command = program;
  program.hook('preAction', (_program, actionCommand) => {
    ran = actionCommand;
  });
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exit(error.exitCode === 0 ? EXIT.ok : EXIT.usage);
    }
    if (error instanceof ApiError) {
      if (cli.json(ran)) {
        process.stderr.write(`${apiErrorJson(error)}\n`);
        process.exit(EXIT.apiError);
      }
      const client = () => cli.client(ran, { progress: false });
      // One line, and one `error:`, for each field the daemon refused.
      const text = await apiErrorText(error, { command: ran, client });
      fail(text.replaceAll('\n', '\nerror: '), EXIT.apiError);
    }
    if (error instanceof ConnectionError) fail(errorText(error), EXIT.unreachable);
    if (error instanceof UsageError) fail(error.message, EXIT.usage);
    if (error instanceof CommandRefusedError) fail(error.message, EXIT.apiError);
    throw error;
  }
}
