import { type Command, InvalidArgumentError } from 'commander';
import { ApiClient } from '../api-client/client.js';
import type { CliConfig } from './config.js';
import { type Printable, print, withProgress } from './output.js';
import { readSession, type StoredSession, sessionHeaders, sessionMatches } from './session.js';

export class UsageError extends Error {}

/** The command could not do what was asked (a data directory another process holds, say): exit 1. */
export class CommandRefusedError extends Error {}

/** What every command gets: the API client and the global options resolved against the environment. */
export interface Cli {
  /**
   * The API client, authenticated by the API key, else by the session `comply login` stored for this
   * daemon. `progress: false` keeps it silent on the terminal (stdout may belong to a protocol);
   * `anonymous: true` sends neither key nor session (signing in).
   */
  client(command: Command, options?: { progress?: boolean; anonymous?: boolean }): ApiClient;
  /** `--url`, else COMPLY_URL. */
  url(command: Command): string;
  /** `--api-key`, else COMPLY_API_KEY. */
  apiKey(command: Command): string | undefined;
  /** The stored session requests to this daemon carry: none when a key is given (keys take precedence). */
  session(command: Command): StoredSession | undefined;
  /** Where `comply login` keeps the session. */
  sessionFile: string;
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
  const url = (command: Command) => globals(command).url ?? config.url;
  const apiKey = (command: Command) => globals(command).apiKey ?? config.apiKey;
  const session = (command: Command) => {
    if (apiKey(command)) return undefined;
    const stored = readSession(config.sessionFile);
    return stored && sessionMatches(stored, url(command)) ? stored : undefined;
  };
  return {
    client: (command, { progress = true, anonymous = false } = {}) => {
      const signedIn = anonymous ? undefined : session(command);
      return new ApiClient(url(command), anonymous ? undefined : apiKey(command), {
        progress: progress
          ? (label, work) => withProgress({ json: Boolean(globals(command).json) }, label, work)
          : undefined,
        headers: signedIn && sessionHeaders(signedIn),
        onUnauthorized: signedIn
          ? () =>
              process.stderr.write(
                `The daemon no longer accepts the session of ${signedIn.email} (${config.sessionFile}): ` +
                  'sign in again with `comply login`.\n',
              )
          : undefined,
      });
    },
    url,
    apiKey,
    session,
    sessionFile: config.sessionFile,
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

/** How a person is asked for a date: the words of every date option's refusal. */
export const DATE_HINT = 'use a date like 2027-01-27 or a date-time like 2027-01-27T09:30:00Z';

export function parseInteger(value: string): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isInteger(parsed))
    throw new InvalidArgumentError('must be a whole number');
  return parsed;
}

export function parseBoolean(value: string): boolean {
  if (['true', 'yes', '1'].includes(value.toLowerCase())) return true;
  if (['false', 'no', '0'].includes(value.toLowerCase())) return false;
  throw new InvalidArgumentError('must be true or false');
}

export const csv = (value: string) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** A comma-separated list whose every item is one of `allowed`, refused here, before any call. */
export const csvOf =
  (allowed: readonly string[]) =>
  (value: string): string[] => {
    const items = csv(value);
    const unknown = items.filter((item) => !allowed.includes(item));
    if (unknown.length || items.length === 0) {
      throw new InvalidArgumentError(`must be a comma-separated list of: ${allowed.join(', ')}`);
    }
    return items;
  };

/** `YYYY-MM-DD` that names a day of the calendar (not 2027-02-30). */
function isCalendarDate(value: string): boolean {
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value.slice(0, 10);
}

/** What the API takes for an instant: a date, or a date-time with its zone (`Z` or `±hh:mm`). */
const INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2}))?$/;

/**
 * A date or a date-time with its zone, passed to the API as given (a bare date means what the API says it
 * means there): refused here, naming the option, when it is neither.
 */
export function parseDate(value: string): string {
  if (!INSTANT.test(value) || !isCalendarDate(value) || Number.isNaN(new Date(value).getTime())) {
    throw new InvalidArgumentError(DATE_HINT);
  }
  return value;
}

/**
 * A date (`YYYY-MM-DD`, UTC) or an ISO date-time, as the ISO date-time the API takes. A bare date means its
 * first instant for `start` bounds and its last for `end` bounds (an expiry, the end of a range).
 */
export const parseTimestamp =
  (bound: 'start' | 'end') =>
  (value: string): string => {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
    const date = day
      ? new Date(`${value}T${bound === 'start' ? '00:00:00.000' : '23:59:59.999'}Z`)
      : new Date(value);
    if (Number.isNaN(date.getTime()) || (day && !isCalendarDate(value))) {
      throw new InvalidArgumentError(DATE_HINT);
    }
    return date.toISOString();
  };
