import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The session `comply login` keeps for a person at a terminal: one file, readable by its owner only
 * (0600, in a 0700 directory), naming the daemon it was issued by. Commands send it only to that daemon,
 * and only when no API key is given: keys take precedence.
 */

/** The name of the session cookie the daemon sets. */
export const SESSION_COOKIE = 'comply_session';

export interface StoredSession {
  /** The daemon that issued the session (COMPLY_URL at sign-in). */
  url: string;
  /** The value of the `comply_session` cookie. */
  cookie: string;
  email: string;
  savedAt: string;
}

export function readSession(file: string): StoredSession | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const session = JSON.parse(text) as Partial<StoredSession>;
    if (typeof session.url === 'string' && typeof session.cookie === 'string' && session.cookie) {
      return {
        url: session.url,
        cookie: session.cookie,
        email: String(session.email ?? ''),
        savedAt: String(session.savedAt ?? ''),
      };
    }
  } catch {
    // A damaged file is no session; `comply login` writes a new one.
  }
  return undefined;
}

/** Writes the session with mode 0600 in a 0700 directory, replacing any earlier one in one step. */
export function saveSession(file: string, session: StoredSession): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(session, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

export function removeSession(file: string): void {
  rmSync(file, { force: true });
}

/** The daemon's origin, which the session was issued by and which its requests must name. */
export const originOf = (url: string) => new URL(url).origin;

/** Whether a stored session belongs to the daemon at `url` (same scheme, host and port). */
export function sessionMatches(session: StoredSession, url: string): boolean {
  try {
    return originOf(session.url) === originOf(url);
  } catch {
    return false;
  }
}

/**
 * The headers that authenticate a request with the session: the cookie, and the daemon's own origin,
 * without which the daemon refuses cookie-authenticated changes (as it would a cross-site request).
 */
export const sessionHeaders = (session: StoredSession): Record<string, string> => ({
  cookie: `${SESSION_COOKIE}=${session.cookie}`,
  origin: originOf(session.url),
});

/** The session cookie's value from a response's `Set-Cookie` headers. */
export function sessionCookieOf(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = pair.slice(eq + 1).trim();
      if (value) return value;
    }
  }
  return undefined;
}
