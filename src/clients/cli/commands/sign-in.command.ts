import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { ApiClient, ApiError, ConnectionError } from '../../api-client/client.js';
import { authPath } from '../../api-client/paths.js';
import type { Me, SignedIn } from '../../api-client/types.js';
import { type Cli, CommandRefusedError, UsageError } from '../cli.js';
import { describe } from '../output.js';
import {
  readSession,
  removeSession,
  saveSession,
  sessionCookieOf,
  sessionHeaders,
  sessionMatches,
} from '../session.js';

const decoder = new TextDecoder();

/** Everything on standard input, less one final line break (`printf '%s\n' "$PASSWORD" | comply login …`). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function needTerminal(what: string, instead: string): void {
  if (!process.stdin.isTTY) throw new UsageError(`No terminal to ask for ${what}: pass ${instead}`);
}

/** A line typed at the terminal; the question goes to stderr so that stdout stays the command's output. */
async function ask(question: string): Promise<string> {
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await readline.question(question)).trim();
  } finally {
    readline.close();
  }
}

/** A secret typed at the terminal, not echoed. Ctrl-C cancels (exit 130), as it would any command. */
function askSecret(question: string): Promise<string> {
  const { stdin, stderr } = process;
  stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve) => {
    let secret = '';
    const done = (cancelled: boolean) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (cancelled) process.exit(130);
      resolve(secret);
    };
    const onData = (typed: string) => {
      for (const char of typed) {
        if (char === '\r' || char === '\n' || char === '\u0004') return done(false);
        if (char === '\u0003') return done(true);
        if (char === '\u007f' || char === '\b') secret = secret.slice(0, -1);
        else if (char >= ' ') secret += char;
      }
    };
    stdin.on('data', onData);
  });
}

const orgsText = (orgs: { orgId: string; role: string }[]) =>
  orgs.length ? orgs.map((o) => `${o.orgId} (${o.role})`).join(', ') : '(none)';

export function registerSignInCommands(program: Command, cli: Cli): void {
  program
    .command('login')
    .description('sign in as a person; later commands use the session (an API key takes precedence)')
    .option('--email <email>', 'your email (asked for when not given)')
    .option('--password-stdin', 'read the password from standard input (scripts), not from a prompt')
    .addHelpText(
      'after',
      `
The session is kept in $XDG_CONFIG_HOME/comply/session.json (else ~/.config/comply/session.json), readable by
you only, and sent only to the daemon it was issued by (COMPLY_URL at sign-in). While COMPLY_API_KEY or
--api-key is set, commands use the key instead. Sessions end after 12 hours idle and 7 days in all.

Examples:
  $ comply login
  $ printf '%s\\n' "$COMPLY_PASSWORD" | comply login --email alice@example.com --password-stdin`,
    )
    .action(async (options: { email?: string; passwordStdin?: boolean }, command: Command) => {
      if (options.passwordStdin && !options.email) {
        throw new UsageError('--password-stdin needs --email (standard input holds the password)');
      }
      let email = options.email;
      if (!email) {
        needTerminal('your email', '--email');
        email = await ask('Email: ');
      }
      let password: string;
      if (options.passwordStdin) {
        password = await readStdin();
      } else {
        needTerminal('the password', '--password-stdin');
        password = await askSecret('Password: ');
      }
      if (!email || !password) throw new UsageError('An email and a password are needed to sign in');

      const url = cli.url(command);
      const response = await cli
        .client(command, { anonymous: true })
        .raw('POST', authPath('/login'), { body: { email, password } });
      const signedIn = JSON.parse(decoder.decode(response.body)) as SignedIn;
      const cookie = sessionCookieOf(response.headers);
      if (!cookie)
        throw new CommandRefusedError(`The daemon at ${url} signed you in without a session cookie`);
      saveSession(cli.sessionFile, {
        url,
        cookie,
        email: signedIn.user.email,
        savedAt: new Date().toISOString(),
      });
      if (cli.apiKey(command)) {
        process.stderr.write(
          'Note: an API key is set (COMPLY_API_KEY or --api-key); commands use the key, not this session, until it is unset.\n',
        );
      }
      await cli.print(command, {
        data: signedIn,
        text: `Signed in to ${url} as ${signedIn.user.name} <${signedIn.user.email}>${signedIn.user.platformAdmin ? ' (platform administrator)' : ''}.\nOrganizations: ${orgsText(signedIn.orgs)}\nSession saved in ${cli.sessionFile}`,
      });
    });

  program
    .command('logout')
    .description('end the stored session on the daemon and delete it')
    .action(async (_options, command: Command) => {
      const session = readSession(cli.sessionFile);
      if (!session) {
        await cli.print(command, { data: { signedOut: false }, text: 'Not signed in.' });
        return;
      }
      const client = new ApiClient(session.url, undefined, { headers: sessionHeaders(session) });
      let unreachable: ConnectionError | undefined;
      try {
        await client.post(authPath('/logout'), undefined);
      } catch (error) {
        // A session the daemon no longer knows has ended already; one it could not be told about stays
        // valid there until it expires, which the exit code (3) reports after the file is gone.
        if (error instanceof ConnectionError) unreachable = error;
        else if (!(error instanceof ApiError && error.status === 401)) throw error;
      }
      removeSession(cli.sessionFile);
      if (unreachable) throw unreachable;
      await cli.print(command, {
        data: { signedOut: true, email: session.email, url: session.url },
        text: `Signed out ${session.email} from ${session.url}.`,
      });
    });

  program
    .command('whoami')
    .description('the API key or the signed-in person commands act as, and what they may do')
    .action(async (_options, command: Command) => {
      const session = cli.session(command);
      if (!cli.apiKey(command) && !session) {
        const stored = readSession(cli.sessionFile);
        throw new CommandRefusedError(
          stored && !sessionMatches(stored, cli.url(command))
            ? `Not signed in to ${cli.url(command)} (the stored session is for ${stored.url}): run \`comply login\` or set COMPLY_API_KEY`
            : 'Not signed in: run `comply login` or set COMPLY_API_KEY',
        );
      }
      const me = await cli.client(command).get<Me>('/me');
      if (me.type === 'key') {
        const can = Object.entries(me.can)
          .filter(([, allowed]) => allowed)
          .map(([permission]) => permission);
        await cli.print(command, {
          data: me,
          text: describe({
            'signed in as': 'API key',
            keyId: me.keyId,
            org: me.orgId ?? '(platform: every organization)',
            scopes: me.scopes.join(','),
            can: can.join(',') || '(nothing)',
          }),
        });
        return;
      }
      await cli.print(command, {
        data: me,
        text: `${describe({
          'signed in as': `${me.name} <${me.email}>`,
          userId: me.userId,
          'platform admin': me.platformAdmin ? 'yes' : 'no',
          session: session ? `${cli.sessionFile} (since ${session.savedAt})` : undefined,
        })}\n`,
        table: {
          columns: ['ORG', 'ROLE', 'SCOPES', 'EXPIRES', 'FRAMEWORKS'],
          rows: me.orgs.map((o) => [
            o.orgId,
            o.role,
            o.scopes.join(','),
            o.expiresAt,
            o.frameworkIds?.join(',') ?? '(all)',
          ]),
        },
      });
    });
}
