import { homedir } from 'node:os';
import path from 'node:path';

/** What the CLI reads from the environment: where the daemon is, which key, which org by default. */
export interface CliConfig {
  url: string;
  apiKey: string | undefined;
  org: string | undefined;
  /** Where `comply login` keeps the session: `$XDG_CONFIG_HOME/comply/session.json`, else `~/.config/…`. */
  sessionFile: string;
}

export function loadCliConfig(env: Record<string, string | undefined> = process.env): CliConfig {
  const configHome = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return {
    url: env.COMPLY_URL || 'http://127.0.0.1:8080',
    apiKey: env.COMPLY_API_KEY || undefined,
    org: env.COMPLY_ORG || undefined,
    sessionFile: path.join(configHome, 'comply', 'session.json'),
  };
}
