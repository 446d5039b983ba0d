/**
 * The two ways a call to the API fails, for every client (CLI, MCP server, gate, web console): the API
 * answered with its error envelope `{ error: { code, message, details } }`, or it could not be reached.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export class ConnectionError extends Error {}

interface Envelope {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

/** The ApiError a failed response stands for; a body that is not the envelope (a proxy's page) leaves the status alone. */
export function apiErrorOf(status: number, statusText: string, body: string): ApiError {
  let envelope: Envelope = {};
  try {
    envelope = JSON.parse(body) as Envelope;
  } catch {
    // Not our envelope: report the status alone.
  }
  return new ApiError(
    status,
    envelope.error?.code ?? `HTTP_${status}`,
    envelope.error?.message ?? statusText,
    envelope.error?.details ?? {},
  );
}
