import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isSerializationFailure } from '../db/transient.js';
import { AppError, conflict, envelope } from '../errors.js';
import { dependencyUnavailable, failedDependency, RETRY_AFTER_SECONDS } from '../unavailable.js';

interface ValidationIssue {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

interface FieldProblem {
  field: string;
  message: string;
  /** The values the field takes, when it takes only a few. */
  allowed?: unknown[];
}

/** Names the offending field of an Ajv issue: `body.title`, `querystring.limit`. */
function fieldOf(context: string | undefined, issue: ValidationIssue): string {
  const missing = issue.params?.missingProperty ?? issue.params?.additionalProperty;
  const segments = (issue.instancePath ?? '').split('/').filter(Boolean);
  if (typeof missing === 'string') segments.push(missing);
  return [context ?? 'request', ...segments].join('.');
}

const oneOf = (allowed: unknown[]): Pick<FieldProblem, 'message' | 'allowed'> => ({
  message: `must be one of: ${allowed.map(String).join(', ')}`,
  allowed,
});

/**
 * Ajv's issues as fields and problems a person can act on. A field that takes a few values names them: an
 * `enum` carries them, and a union of constants reports each constant it is not equal to before the union
 * itself, which are told as one problem.
 */
function validationDetails(error: FastifyError): { fields: FieldProblem[] } {
  const fields: FieldProblem[] = [];
  let constants: { path: string | undefined; values: unknown[] } | undefined;
  // Constants not followed by their union (a lone `const`, or a union with other kinds of branch): each alone.
  const flush = () => {
    for (const value of constants?.values ?? []) {
      fields.push({
        field: fieldOf(error.validationContext, { instancePath: constants?.path }),
        message: `must be ${JSON.stringify(value)}`,
      });
    }
    constants = undefined;
  };
  for (const raw of error.validation ?? []) {
    const issue = raw as ValidationIssue;
    const field = fieldOf(error.validationContext, issue);
    if (issue.keyword === 'const' && issue.params && 'allowedValue' in issue.params) {
      if (constants === undefined || constants.path !== issue.instancePath) {
        flush();
        constants = { path: issue.instancePath, values: [] };
      }
      constants.values.push(issue.params.allowedValue);
    } else if (
      issue.keyword === 'anyOf' &&
      constants !== undefined &&
      constants.path === issue.instancePath
    ) {
      fields.push({ field, ...oneOf(constants.values) });
      constants = undefined;
    } else {
      flush();
      fields.push(
        issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)
          ? { field, ...oneOf(issue.params.allowedValues) }
          : { field, message: issue.message ?? 'is invalid' },
      );
    }
  }
  flush();
  return { fields };
}

/** Bad JSON, empty or oversized bodies, unsupported media types, unreadable URLs: all malformed input. */
const malformed = (error: FastifyError) =>
  envelope('BAD_REQUEST', error.message, { reason: error.code ?? 'invalid' });

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs (a path that is not valid
 * percent-encoded UTF-8, a path parameter over `maxParamLength`) is malformed input too, so 400, not 414.
 */
export function renderFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  // Answered before any hook ran (an undecodable URL, say): the nosniff header the hooks add must be set here.
  reply.header('x-content-type-options', 'nosniff').status(400).send(malformed(error));
}

/**
 * One renderer for every error: the contract's envelope, 400 for anything malformed (including the
 * framework's own body errors), and a masked 500 that carries the request id of its log line.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((raw: FastifyError | AppError, request, reply) => {
    // A dependency that is down (the database, Redis) is the client's cue to retry, not our fault.
    const dependency = raw instanceof AppError ? null : failedDependency(raw);
    // A transaction that lost to a concurrent one more often than it was retried: the client's cue to send
    // the request again, and no outage.
    const error = dependency
      ? dependencyUnavailable(dependency)
      : !(raw instanceof AppError) && isSerializationFailure(raw)
        ? conflict('The request conflicted with concurrent changes; send it again', {
            reason: 'concurrent-update',
          })
        : raw;
    if (error instanceof AppError) {
      if (error.code === 'SERVICE_UNAVAILABLE') {
        // One line per refusal, without a stack: an outage is not a bug, and must not flood the log.
        request.log.warn(
          { code: error.code, ...error.details, cause: dependency ? raw.message : undefined },
          error.message,
        );
        reply.header('retry-after', String(error.details.retryAfterSeconds ?? RETRY_AFTER_SECONDS));
      } else if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send(
          envelope(
            error.code,
            error.message,
            error.code === 'SERVICE_UNAVAILABLE'
              ? { retryAfterSeconds: RETRY_AFTER_SECONDS, ...error.details, requestId: request.id }
              : error.statusCode >= 500
                ? { ...error.details, requestId: request.id }
                : error.details,
          ),
        );
    }
    if (error.validation) {
      const details = validationDetails(error);
      const first = details.fields[0];
      return reply
        .status(400)
        .send(
          envelope('BAD_REQUEST', first ? `${first.field} ${first.message}` : 'Invalid request', details),
        );
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(envelope('RATE_LIMITED', 'Too many requests', {}));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(400).send(malformed(error));
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send(envelope('INTERNAL_ERROR', 'Internal server error', { requestId: request.id }));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(envelope('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} does not exist`, {}));
  });
}
