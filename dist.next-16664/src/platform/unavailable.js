import { isSerializationFailure, isTransientDatabaseError } from './db/transient.js';
import { AppError } from './errors.js';
/**
 * How long a client should wait before retrying a request refused because a dependency is down; sent as
 * `Retry-After` and as `details.retryAfterSeconds` on every 503.
 */
export const RETRY_AFTER_SECONDS = 5;
const REDIS_MESSAGE = /Stream isn't writeable|Connection is closed|Reached the max retries per request/i;
// The pool closed under a handler still running while the daemon shuts down (its client already gone).
const DATABASE_CLOSED = /driver has already been destroyed|Cannot use a pool after calling end on the pool/i;
/**
 * Which dependency an unexpected error says is down, or null when it is a genuine fault of ours. A
 * serialization failure is neither: the database is up and chose one of two concurrent transactions.
 */
export function failedDependency(error) {
    if (!(error instanceof Error) || isSerializationFailure(error))
        return null;
    if (error.name === 'MaxRetriesPerRequestError' || REDIS_MESSAGE.test(error.message))
        return 'redis';
    if (DATABASE_CLOSED.test(error.message))
        return 'database';
    // MikroORM wraps driver errors; the driver's own error is kept as the cause.
    for (let current = error; current instanceof Error; current = current.cause) {
        if (isTransientDatabaseError(current))
            return 'database';
    }
    return null;
}
/** The 503 every dependency failure becomes: the envelope, `Retry-After`, and what is down. */
export function serviceUnavailable(message, details = {}) {
    return new AppError('SERVICE_UNAVAILABLE', message, { retryAfterSeconds: RETRY_AFTER_SECONDS, ...details }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
}
/** The 503 for an error that `failedDependency` recognised. */
export const dependencyUnavailable = (dependency) => serviceUnavailable(dependency === 'database'
    ? 'The database is unavailable; retry later'
    : 'Redis is unavailable; retry later', { dependency });
//# sourceMappingURL=unavailable.js.map