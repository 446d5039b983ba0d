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
        adminKey,
        logLevel,
        bodyLimitBytes: integer(env, 'COMPLY_BODY_LIMIT_BYTES', 1_048_576, 1024, 100 * 1_048_576),
        rateLimit: Object.freeze({
            max: integer(env, 'COMPLY_RATE_LIMIT_MAX', 6000, 1, 10_000_000),
            windowMs: integer(env, 'COMPLY_RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000),
        }),
        jobWaitMs: integer(env, 'COMPLY_JOB_WAIT_MS', 60_000, 100, 3_600_000),
        embeddings: Object.freeze({
            modelDir: path.resolve(env.COMPLY_MODEL_DIR || './models'),
            modelName: env.COMPLY_EMBEDDING_MODEL || 'Xenova/all-MiniLM-L6-v2',
        }),
        metricsPort: env.COMPLY_METRICS_PORT ? integer(env, 'COMPLY_METRICS_PORT', 0, 0, 65535) : null,
    });
}
export function loadCliConfig(env = process.env) {
    return {
        url: env.COMPLY_URL || 'http://127.0.0.1:8080',
        apiKey: env.COMPLY_API_KEY || undefined,
        org: env.COMPLY_ORG || undefined,
    };
}
//# sourceMappingURL=config.js.map