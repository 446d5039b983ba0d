/**
 * The two ways a call to the API fails, for every client (CLI, MCP server, gate, web console): the API
 * answered with its error envelope `{ error: { code, message, details } }`, or it could not be reached.
 */
export class ApiError extends Error {
    status;
    code;
    details;
    constructor(status, code, message, details = {}) {
        super(message);
        this.status = status;
        this.code = code;
        this.details = details;
    }
}
export class ConnectionError extends Error {
}
/** The ApiError a failed response stands for; a body that is not the envelope (a proxy's page) leaves the status alone. */
export function apiErrorOf(status, statusText, body) {
    let envelope = {};
    try {
        envelope = JSON.parse(body);
    }
    catch {
        // Not our envelope: report the status alone.
    }
    return new ApiError(status, envelope.error?.code ?? `HTTP_${status}`, envelope.error?.message ?? statusText, envelope.error?.details ?? {});
}
//# sourceMappingURL=errors.js.map