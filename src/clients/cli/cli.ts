import { type Command, InvalidArgumentError } from 'commander';
import { ApiClient } from '../api-client/client.js';
import type { CliConfig } from './config.js';
import { type Printable, print, withProgress } from './output.js';

export class UsageError extends Error {}

/** The command could not do what was asked (a data directory another process holds, say): exit 1. */
export class CommandRefusedError extends Error {}

/** What every command gets: the API client and the global options resolved against the environment. */
export interface Cli {
  /** The API client; `progress: false` keeps it silent on the terminal (stdout may belong to a protocol). */
  client(command: Command, options?: { progress?: boolean }): ApiClient;
  /** `--api-key`, else COMPLY_API_KEY. */
  apiKey(command: Command): string | undefined;
  json(command: Command): boolean;
  /** Prints a command's result: the API's response with `--json`, else its text and table. */
  print(command: Command, result: Printable): Promise<void>;
  /** The org a command acts on: `--org`, else COMPLY_ORG. */
  org(command: Command): string;
  /** Commands that work with or without an org. */
  optionalOrg(command: Command): string | undefined;
}

interface GlobalOptions {
  url?: string;
  apiKey?: string;
  json?: boolean;
  org?: string;
}

export function createCli(config: CliConfig): Cli {
  const globals = (command: Command) => command.optsWithGlobals<GlobalOptions>();
  return {
    client: (command, { progress = true } = {}) =>
      new ApiClient(
        globals(command).url ?? config.url,
        globals(command).apiKey ?? config.apiKey,
        progress
          ? (label, work) => withProgress({ json: Boolean(globals(command).json) }, label, work)
          : undefined,
      ),
    apiKey: (command) => globals(command).apiKey ?? config.apiKey,
    json: (command) => Boolean(globals(command).json),
    print: (command, result) => print({ json: Boolean(globals(command).json) }, result),
    optionalOrg: (command) => globals(command).org ?? config.org,
    org: (command) => {
      const org = globals(command).org ?? config.org;
      if (!org) throw new UsageError('No organization given: pass --org <orgId> or set COMPLY_ORG');
      return org;
    },
  };
}

export function parseInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new InvalidArgumentError('expected an integer');
  return parsed;
}

export function parseBoolean(value: string): boolean {
  if (['true', 'yes', '1'].includes(value.toLowerCase())) return true;
  if (['false', 'no', '0'].includes(value.toLowerCase())) return false;
  throw new InvalidArgumentError('expected true or false');
}

export const csv = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
