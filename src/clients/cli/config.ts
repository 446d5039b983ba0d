/** What the CLI reads from the environment: where the daemon is, which key, which org by default. */
export interface CliConfig {
  url: string;
  apiKey: string | undefined;
  org: string | undefined;
}

export function loadCliConfig(env: Record<string, string | undefined> = process.env): CliConfig {
  return {
    url: env.COMPLY_URL || 'http://127.0.0.1:8080',
    apiKey: env.COMPLY_API_KEY || undefined,
    org: env.COMPLY_ORG || undefined,
  };
}
