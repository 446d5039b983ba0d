import { ApiError, ConnectionError } from './errors.js';
/** A fraction (coverage, 0–1) as a percentage: 0.875 → `87.5%`. */
export function percent(fraction, { digits = 1, missing = 'n/a' } = {}) {
    return fraction === null || fraction === undefined ? missing : `${(fraction * 100).toFixed(digits)}%`;
}
/** A score, which the API already gives in percent (0–100): as given, or fixed to `digits` decimals. */
export function score(value, { digits, missing = 'n/a' } = {}) {
    if (value === null || value === undefined)
        return missing;
    return `${digits === undefined ? value : value.toFixed(digits)}%`;
}
/** One line for a failed call: the API's message, status and code, and its details when there are any. */
export function errorText(error) {
    if (error instanceof ApiError) {
        const details = Object.keys(error.details).length ? ` ${JSON.stringify(error.details)}` : '';
        return `${error.message} (${error.status} ${error.code})${details}`;
    }
    if (error instanceof ConnectionError)
        return error.message;
    return `Unexpected error: ${error.message}`;
}
//# sourceMappingURL=format.js.map