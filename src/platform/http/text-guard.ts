import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.js';
import {
  anyMalformedText,
  decodeMarkingInvalid,
  INVALID_UTF8,
  isUtf8,
  LONE_SURROGATE,
  malformedTextFields,
  mayHoldSurrogateEscape,
} from '../text.js';

const refuse = (fields: string[], message: string) =>
  badRequest(`${fields[0]} ${message}`, { fields: fields.map((field) => ({ field, message })) });

/** Query parameters whose raw percent-encoding is not UTF-8 (the query parser would keep them as `%FF`). */
function undecodableQueryFields(request: FastifyRequest): string[] {
  const start = request.url.indexOf('?');
  if (start < 0) return [];
  const found: string[] = [];
  for (const pair of request.url.slice(start + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const [rawKey, rawValue = ''] = pair.split('=', 2);
    const decode = (text: string) => {
      try {
        return decodeURIComponent(text.replaceAll('+', ' '));
      } catch {
        return null;
      }
    };
    const key = decode(rawKey);
    if (key === null || decode(rawValue) === null) found.push(`querystring.${key ?? rawKey}`);
  }
  return found;
}

/**
 * Applies the text rule of src/text.ts everywhere: JSON bodies are checked as they are parsed (raw
 * invalid bytes, then lone surrogate escapes), paths and queries before validation.
 */
export function registerTextGuard(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const bytes = raw as Buffer;
    if (!isUtf8(bytes)) {
      let fields: string[] = [];
      try {
        fields = malformedTextFields('body', JSON.parse(decodeMarkingInvalid(bytes)));
      } catch {
        // Not JSON either: the body as a whole is refused.
      }
      done(
        fields.length > 0
          ? refuse(fields, INVALID_UTF8)
          : badRequest(`The request body ${INVALID_UTF8}`, { reason: 'invalid_utf8' }),
        undefined,
      );
      return;
    }
    const text = bytes.toString('utf8');
    parseJson(request, text, (error, value) => {
      if (error) return done(error, undefined);
      const fields = mayHoldSurrogateEscape(text) ? malformedTextFields('body', value) : [];
      if (fields.length > 0) return done(refuse(fields, LONE_SURROGATE), undefined);
      done(null, value);
    });
  });

  app.addHook('preValidation', (request, _reply, done) => {
    if (!request.routeOptions.url) return done();
    const undecodable = undecodableQueryFields(request);
    if (undecodable.length > 0) return done(refuse(undecodable, INVALID_UTF8));
    if (!anyMalformedText(request.params) && !anyMalformedText(request.query)) return done();
    const fields = [
      ...malformedTextFields('params', request.params),
      ...malformedTextFields('querystring', request.query),
    ];
    done(fields.length > 0 ? refuse(fields, LONE_SURROGATE) : undefined);
  });
}
