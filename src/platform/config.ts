import path from 'node:path';

/** Everything the daemon, workers and CLI read from the environment, parsed and validated once. */
export interface Config {
  host: string;
  port: number;
  /** PGlite data directory, used when `databaseUrl` is unset. */
  dataDir: string;
  databaseUrl: string | null;
  redisUrl: string | null;
  /** Prefix of every BullMQ key in Redis: deployments (or test runs) sharing one Redis use different ones. */
  queuePrefix: string;
  /** Accepted as a platform key when set (automation, tests). */
  adminKey: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  bodyLimitBytes: number;
  rateLimit: { max: number; windowMs: number };
  /** Refused authentications per client address and window, then `429` without asking the database. */
  authFailures: { max: number; windowMs: number };
  /** Days after an attestation's time at which the evidence it created expires. */
  attestationFreshnessDays: number;
  /** Upper bound for a request waiting on a queued job (exports). */
  jobWaitMs: number;
  embeddings: { modelDir: string; modelName: string };
  /**
   * Whether a daemon prepares search and compiles the OSCAL schemas soon after it starts listening, and a
   * worker before it takes jobs, so that the first search or export does not pay for them
   * (`COMPLY_WARM_UP`, default true). A short-lived daemon, as in a test or a CI smoke check, can skip it.
   */
  warmUp: boolean;
  /** Port of the separate Prometheus `GET /metrics` listener (on `host`); null: no metrics endpoint. */
  metricsPort: number | null;
  /** Address the metrics listener binds to (`COMPLY_METRICS_HOST`, else `host`). */
  metricsHost: string;
  /**
   * The daemon's address as browsers reach it (`COMPLY_PUBLIC_URL`): the origin cookie-authenticated changes
   * must come from, the base of invitation links, and `Secure` cookies when https. Null: the request's own host.
   */
  publicUrl: string | null;
  sessions: { idleMs: number; maxMs: number };
  /** Failed sign-ins per email: slowed from `slowAfter` on, refused with 429 from `max` on, within `windowMs`. */
  signInFailures: { slowAfter: number; max: number; windowMs: number };
  /** Single sign-on with OpenID Connect; null unless issuer, client id and secret are all set. */
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /**
   * Webhook deliveries: whether receivers may be on loopback, private, link-local or other internal
   * addresses (refused by default); the first retry's delay (each next one doubles, over about a day); the
   * bound on one attempt.
   */
  webhooks: { allowPrivate: boolean; backoffMs: number; timeoutMs: number };
  /** The daily email digest: SMTP server, sender and the UTC hour it goes out from; null without SMTP. */
  mail: { smtpUrl: string; from: string; digestHourUtc: number } | null;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
  }
  return raw;
}

function queuePrefix(env: Env): string {
  const raw = env.COMPLY_QUEUE_PREFIX || 'comply';
  // BullMQ joins its keys with ':', so the prefix itself must not contain one.
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) {
    throw new ConfigError(`COMPLY_QUEUE_PREFIX must be 1-64 letters, digits, '.', '_' or '-', got "${raw}"`);
  }
  return raw;
}

function oidc(env: Env): Config['oidc'] {
  const issuer = url(env, 'COMPLY_OIDC_ISSUER', ['http:', 'https:']);
  const clientId = env.COMPLY_OIDC_CLIENT_ID || null;
  const clientSecret = env.COMPLY_OIDC_CLIENT_SECRET || null;
  const given = [issuer, clientId, clientSecret].filter((value) => value !== null).length;
  if (given === 0) return null;
  if (given < 3) {
    throw new ConfigError(
      'Single sign-on needs COMPLY_OIDC_ISSUER, COMPLY_OIDC_CLIENT_ID and COMPLY_OIDC_CLIENT_SECRET',
    );
  }
  if (!env.COMPLY_PUBLIC_URL)
    throw new ConfigError('Single sign-on needs COMPLY_PUBLIC_URL (its callback address)');
  return Object.freeze({
    issuer: issuer as string,
    clientId: clientId as string,
    clientSecret: clientSecret as string,
  });
}

/** A true/false setting; `fallback` when it is unset or empty. */
function flag(env: Env, name: string, fallback = false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function mail(env: Env): Config['mail'] {
  const smtpUrl = url(env, 'COMPLY_SMTP_URL', ['smtp:', 'smtps:']);
  if (!smtpUrl) return null;
  const from = env.COMPLY_MAIL_FROM;
  if (!from || !/^[^\s@<>]+@[^\s@<>]+$|^[^<>]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) {
    throw new ConfigError(
      'COMPLY_SMTP_URL needs COMPLY_MAIL_FROM, the sender: an address, or "Name <address>"',
    );
  }
  return Object.freeze({ smtpUrl, from, digestHourUtc: integer(env, 'COMPLY_DIGEST_HOUR', 7, 0, 23) });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const logLevel = (env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }
  const adminKey = env.COMPLY_ADMIN_KEY || null;
  if (adminKey !== null && adminKey.length < 16) {
    throw new ConfigError('COMPLY_ADMIN_KEY must be at least 16 characters');
  }
  return Object.freeze({
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir: path.resolve(env.COMPLY_DATA_DIR || './data'),
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    queuePrefix: queuePrefix(env),
    adminKey,
    logLevel,
    bodyLimitBytes: integer(env, 'COMPLY_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    rateLimit: Object.freeze({
      max: integer(env, 'COMPLY_RATE_LIMIT_MAX', 6000, 1, 10_000_000),
      windowMs: integer(env, 'COMPLY_RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000),
    }),
    authFailures: Object.freeze({
      max: integer(env, 'COMPLY_AUTH_FAILURES_MAX', 100, 1, 10_000_000),
      windowMs: integer(env, 'COMPLY_AUTH_FAILURES_WINDOW_MS', 60_000, 100, 86_400_000),
    }),
    attestationFreshnessDays: integer(env, 'COMPLY_ATTESTATION_FRESHNESS_DAYS', 90, 1, 36_500),
    jobWaitMs: integer(env, 'COMPLY_JOB_WAIT_MS', 60_000, 100, 3_600_000),
    warmUp: flag(env, 'COMPLY_WARM_UP', true),
    embeddings: Object.freeze({
      modelDir: path.resolve(env.COMPLY_MODEL_DIR || './models'),
      modelName: env.COMPLY_EMBEDDING_MODEL || 'Xenova/all-MiniLM-L6-v2',
    }),
    metricsPort: env.COMPLY_METRICS_PORT ? integer(env, 'COMPLY_METRICS_PORT', 0, 0, 65535) : null,
    metricsHost: env.COMPLY_METRICS_HOST || env.HOST || '127.0.0.1',
    publicUrl: url(env, 'COMPLY_PUBLIC_URL', ['http:', 'https:']),
    sessions: Object.freeze({
      idleMs: integer(env, 'COMPLY_SESSION_IDLE_MINUTES', 720, 1, 525_600) * 60_000,
      maxMs: integer(env, 'COMPLY_SESSION_MAX_HOURS', 168, 1, 8_760) * 3_600_000,
    }),
    signInFailures: Object.freeze({
      slowAfter: integer(env, 'COMPLY_SIGN_IN_SLOW_AFTER', 3, 1, 1000),
      max: integer(env, 'COMPLY_SIGN_IN_FAILURES_MAX', 10, 1, 1000),
      windowMs: integer(env, 'COMPLY_SIGN_IN_WINDOW_MS', 900_000, 100, 86_400_000),
    }),
    oidc: oidc(env),
    webhooks: Object.freeze({
      allowPrivate: flag(env, 'COMPLY_WEBHOOK_ALLOW_PRIVATE'),
      backoffMs: integer(env, 'COMPLY_WEBHOOK_BACKOFF_MS', 21_000, 1, 3_600_000),
      timeoutMs: integer(env, 'COMPLY_WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    }),
    mail: mail(env),
  });
}
