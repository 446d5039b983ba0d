/** The error catalogue: every error the API returns is one of these codes, rendered as the contract's envelope. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'RESOURCE_NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'REQUEST_TIMEOUT'
  | 'HEADERS_TOO_LARGE'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE';

const STATUS: Record<ErrorCode, number> = {
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

export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = STATUS[code];
  }
}

export const badRequest = (message: string, details: ErrorDetails = {}) =>
  new AppError('BAD_REQUEST', message, details);

/** A 400 that names one offending field, in the same `details.fields` shape as schema validation errors. */
export const invalidField = (field: string, message: string, details: ErrorDetails = {}) =>
  badRequest(`${field} ${message}`, { fields: [{ field, message }], ...details });

export const unauthorized = (message = 'Missing or invalid API key') => new AppError('UNAUTHORIZED', message);

export const forbidden = (message: string, details: ErrorDetails = {}) =>
  new AppError('FORBIDDEN', message, details);

export const conflict = (message: string, details: ErrorDetails = {}) =>
  new AppError('CONFLICT', message, details);

/** `kind` is the resource's display name ("Control"); details name the identifier that was not found. */
export const resourceNotFound = (kind: string, details: ErrorDetails) =>
  new AppError('RESOURCE_NOT_FOUND', `${kind} not found`, details);

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details: ErrorDetails };
}

export const envelope = (code: ErrorCode, message: string, details: ErrorDetails = {}): ErrorEnvelope => ({
  error: { code, message, details },
});
