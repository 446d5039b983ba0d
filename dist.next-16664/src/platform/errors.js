const STATUS = {
    BAD_REQUEST: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    NOT_FOUND: 404,
    RESOURCE_NOT_FOUND: 404,
    CONFLICT: 409,
    RATE_LIMITED: 429,
    REQUEST_TIMEOUT: 408,
    HEADERS_TOO_LARGE: 431,
    INTERNAL_ERROR: 500,
    SERVICE_UNAVAILABLE: 503,
};
export class AppError extends Error {
    code;
    details;
    headers;
    statusCode;
    constructor(code, message, details = {}, headers = {}) {
        super(message);
        this.code = code;
        this.details = details;
        this.headers = headers;
        this.statusCode = STATUS[code];
    }
}
export const badRequest = (message, details = {}) => new AppError('BAD_REQUEST', message, details);
/** A 400 that names one offending field, in the same `details.fields` shape as schema validation errors. */
export const invalidField = (field, message, details = {}) => badRequest(`${field} ${message}`, { fields: [{ field, message }], ...details });
export const unauthorized = (message = 'Missing or invalid API key') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message, details = {}) => new AppError('FORBIDDEN', message, details);
export const conflict = (message, details = {}) => new AppError('CONFLICT', message, details);
/** `kind` is the resource's display name ("Control"); details name the identifier that was not found. */
export const resourceNotFound = (kind, details) => new AppError('RESOURCE_NOT_FOUND', `${kind} not found`, details);
export const envelope = (code, message, details = {}) => ({
    error: { code, message, details },
});
//# sourceMappingURL=errors.js.map