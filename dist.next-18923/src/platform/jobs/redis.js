import { Redis } from 'ioredis';
export const REDIS_COMMAND_TIMEOUT_MS = 2000;
const ROLE_OPTIONS = {
    command: {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        connectTimeout: REDIS_COMMAND_TIMEOUT_MS,
    },
    blocking: { maxRetriesPerRequest: null },
};
/**
 * A connection that reconnects forever (backing off to 5 s) and logs each outage once, not every retry.
 * `commandTimeoutMs` shortens the bound of a command connection (rate limiting sits on every request).
 */
export function createRedis(url, role, log, name, options = {}) {
    const redis = new Redis(url, {
        ...ROLE_OPTIONS[role],
        ...(role === 'command' && options.commandTimeoutMs ? { commandTimeout: options.commandTimeoutMs } : {}),
        connectionName: `comply-${name}`,
        retryStrategy: (attempt) => Math.min(attempt * 250, 5000),
    });
    let down = false;
    redis.on('error', (error) => {
        if (down)
            return;
        down = true;
        log.warn({ err: error, connection: name }, 'Redis unreachable; retrying in the background');
    });
    redis.on('ready', () => {
        if (!down)
            return;
        down = false;
        log.info({ connection: name }, 'Redis reachable again');
    });
    return redis;
}
//# sourceMappingURL=redis.js.map