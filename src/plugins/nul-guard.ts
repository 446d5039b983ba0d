import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Leave the body unscanned: for a hot route whose body strings that reach a text column are all
     * pattern-checked by its schema and whose free-form JSON is stored as JSON text, where NUL stays escaped.
     */
    bodyMayHoldNul?: boolean;
  }
}

const NUL = '\u0000';

/** The fields (`body.owner`, `querystring.search.1`) under `value` whose string or member name holds a NUL. */
function fieldsWithNul(part: string, value: unknown): string[] {
  const found: string[] = [];
  // A worklist, not recursion: a deeply nested body must not overflow the call stack.
  const pending: [string, unknown][] = [[part, value]];
  for (let index = 0; index < pending.length; index += 1) {
    const [field, item] = pending[index];
    if (typeof item === 'string') {
      if (item.includes(NUL)) found.push(field);
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        // A member name with a NUL is reported as if it were the member's value.
        pending.push([`${field}.${key}`, key.includes(NUL) ? key : child]);
      }
    }
  }
  return found;
}

/**
 * PostgreSQL text cannot hold NUL (U+0000): refuse it anywhere in the path, query or body with 400 before
 * any handler can pass it to the database, instead of a 500 from deep down.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // Unknown routes answer 404 whatever their input.
    if (!request.routeOptions.url) return done();
    const fields = [
      ...fieldsWithNul('params', request.params),
      ...fieldsWithNul('querystring', request.query),
      ...(request.routeOptions.config.bodyMayHoldNul ? [] : fieldsWithNul('body', request.body)),
    ];
    if (fields.length === 0) return done();
    const message = 'must not contain NUL (U+0000)';
    done(badRequest(`${fields[0]} ${message}`, { fields: fields.map((field) => ({ field, message })) }));
  });
}
