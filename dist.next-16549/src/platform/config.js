import path from 'node:path';
export class ConfigError extends Error {
}
function integer(env, name, fallback, min, max) {
    const raw = env[name];
    if (raw === undefined || raw === '')
        return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
        throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
    }
    return value;
}
function url(env, name, protocols) {
    const raw = env[name];
    if (!raw)
        return null;
    let parsed;
    try {
        parsed = new URL(raw);
    }
    catch {
        throw new ConfigError(`${name} is not a valid URL`);
    }
    if (!protocols.includes(parsed.protocol)) {
        throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${parsed.protocol}`);
    }
    return raw;
}
function queuePrefix(env) {
    const raw = env.COMPLY_QUEUE_PREFIX || 'comply';
    // BullMQ joins its keys with ':', so the prefix itself must not contain one.
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(raw)) {
        throw new ConfigError(`COMPLY_QUEUE_PREFIX must be 1-64 letters, digits, '.', '_' or '-', got "${raw}"`);
    }
    return raw;
}
function oidc(env) {
    const issuer = url(env, 'COMPLY_OIDC_ISSUER', ['http:', 'https:']);
    const clientId = env.COMPLY_OIDC_CLIENT_ID || null;
    const clientSecret = env.COMPLY_OIDC_CLIENT_SECRET || null;
    const given = [issuer, clientId, clientSecret].filter((value) => value !== null).length;
    if (given === 0)
        return null;
    if (given < 3) {
        throw new ConfigError('Single sign-on needs COMPLY_OIDC_ISSUER, COMPLY_OIDC_CLIENT_ID and COMPLY_OIDC_CLIENT_SECRET');
    }
    if (!env.COMPLY_PUBLIC_URL)
        throw new ConfigError('Single sign-on needs COMPLY_PUBLIC_URL (its callback address)');
    return Object.freeze({
        issuer: issuer,
        clientId: clientId,
        clientSecret: clientSecret,
    });
}
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export function loadConfig(env = process.env) {
    const logLevel = (env.LOG_LEVEL ?? 'info');
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
    });
}
//# sourceMappingURL=config.js.map