/** SQLSTATE classes and socket errors that say "try again", not "this write is wrong". */
const TRANSIENT_CODES = new Set([
    '40001', // serialization_failure
    '40P01', // deadlock_detected
    '53300', // too_many_connections
    '57P01', // admin_shutdown
    '57P02', // crash_shutdown
    '57P03', // cannot_connect_now
    'ECONNREFUSED',
    'ECONNRESET',
    'EPIPE',
    'ETIMEDOUT',
]);
const TRANSIENT_MESSAGE = /connection terminated|connection (?:is )?closed|terminating connection|connection error|timeout exceeded when trying to connect|server closed the connection|Client was closed/i;
/** True for failures of the database connection or of concurrency, after which a retry can succeed. */
export function isTransientDatabaseError(error) {
    if (!(error instanceof Error))
        return false;
    const code = error.code;
    if (typeof code === 'string' && (TRANSIENT_CODES.has(code) || code.startsWith('08')))
        return true;
    return TRANSIENT_MESSAGE.test(error.message);
}
/** SQLSTATEs of a transaction that lost to a concurrent one; the same transaction run again can succeed. */
const SERIALIZATION_CODES = new Set(['40001', '40P01']);
/**
 * True when the error (or one it wraps: the ORM keeps the driver's error as the cause) is a serialization
 * failure or a deadlock: a conflict between concurrent transactions, not a fault of the database.
 */
export function isSerializationFailure(error) {
    for (let current = error; current instanceof Error; current = current.cause) {
        const code = current.code;
        if (typeof code === 'string' && SERIALIZATION_CODES.has(code))
            return true;
    }
    return false;
}
//# sourceMappingURL=transient.js.map