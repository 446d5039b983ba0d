import { badRequest } from '../errors.js';
import { anyMalformedText, decodeMarkingInvalid, INVALID_UTF8, isUtf8, LONE_SURROGATE, malformedTextFields, mayHoldSurrogateEscape, } from '../text.js';
const refuse = (fields, message) => badRequest(`${fields[0]} ${message}`, { fields: fields.map((field) => ({ field, message })) });
/** Query parameters whose raw percent-encoding is not UTF-8 (the query parser would keep them as `%FF`). */
function undecodableQueryFields(request) {
    const start = request.url.indexOf('?');
    if (start < 0)
        return [];
    const found = [];
    for (const pair of request.url.slice(start + 1).split('&')) {
        if (!pair.includes('%'))
            continue;
        const [rawKey, rawValue = ''] = pair.split('=', 2);
        const decode = (text) => {
            try {
                return decodeURIComponent(text.replaceAll('+', ' '));
            }
            catch {
                return null;
            }
        };
        const key = decode(rawKey);
        if (key === null || decode(rawValue) === null)
            found.push(`querystring.${key ?? rawKey}`);
    }
    return found;
}
/**
 * The body's `__proto__` (or `constructor.prototype`) members, which the JSON parser refuses lest they
 * reach an object's prototype, named as fields; null when the text is not JSON at all.
 */
function forbiddenMemberError(text) {
    let value;
    try {
        value = JSON.parse(text);
    }
    catch {
        return null;
    }
    const found = [];
    const pending = [[value, 'body']];
    for (let next = pending.pop(); next; next = pending.pop()) {
        const [node, path] = next;
        if (typeof node !== 'object' || node === null)
            continue;
        for (const [key, child] of Object.entries(node)) {
            if (key === '__proto__')
                found.push(`${path}.__proto__`);
            else if (key === 'constructor' && typeof child === 'object' && child !== null && 'prototype' in child)
                found.push(`${path}.constructor.prototype`);
            else
                pending.push([child, `${path}.${key}`]);
        }
    }
    if (found.length === 0)
        return null;
    return badRequest(`The request body may not have a member named ${found[0].split('.').slice(-1)[0]}`, {
        reason: 'forbidden_member',
        fields: found.map((field) => ({ field, message: 'is a member name the API refuses' })),
    });
}
/**
 * Applies the text rule of src/text.ts everywhere: JSON bodies are checked as they are parsed (raw
 * invalid bytes, then lone surrogate escapes), paths and queries before validation.
 */
export function registerTextGuard(app) {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
        const bytes = raw;
        if (!isUtf8(bytes)) {
            let fields = [];
            try {
                fields = malformedTextFields('body', JSON.parse(decodeMarkingInvalid(bytes)));
            }
            catch {
                // Not JSON either: the body as a whole is refused.
            }
            done(fields.length > 0
                ? refuse(fields, INVALID_UTF8)
                : badRequest(`The request body ${INVALID_UTF8}`, { reason: 'invalid_utf8' }), undefined);
            return;
        }
        const text = bytes.toString('utf8');
        parseJson(request, text, (error, value) => {
            if (error)
                return done(forbiddenMemberError(text) ?? error, undefined);
            const fields = mayHoldSurrogateEscape(text) ? malformedTextFields('body', value) : [];
            if (fields.length > 0)
                return done(refuse(fields, LONE_SURROGATE), undefined);
            done(null, value);
        });
    });
    app.addHook('preValidation', (request, _reply, done) => {
        if (!request.routeOptions.url)
            return done();
        const undecodable = undecodableQueryFields(request);
        if (undecodable.length > 0)
            return done(refuse(undecodable, INVALID_UTF8));
        if (!anyMalformedText(request.params) && !anyMalformedText(request.query))
            return done();
        const fields = [
            ...malformedTextFields('params', request.params),
            ...malformedTextFields('querystring', request.query),
        ];
        done(fields.length > 0 ? refuse(fields, LONE_SURROGATE) : undefined);
    });
}
//# sourceMappingURL=text-guard.js.map