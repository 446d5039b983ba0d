import { isUtf8 } from 'node:buffer';
/**
 * The one rule for text the API accepts, in a path, a query or a body: it must be valid UTF-8 and
 * well-formed Unicode. Invalid bytes, and lone surrogates written as JSON escapes (`"\ud800"`), would
 * otherwise be stored as U+FFFD (what PostgreSQL's UTF-8 encoding makes of them) while hashes and
 * signatures were computed over something else; they are refused with a 400 naming the field.
 */
export const INVALID_UTF8 = 'must be valid UTF-8';
export const LONE_SURROGATE = 'must not contain unpaired surrogates (U+D800 to U+DFFF)';
/**
 * Decodes UTF-8, turning each byte that is not part of a valid sequence into a lone low surrogate
 * (U+DC80 to U+DCFF, as Python's "surrogateescape" does), so that the fields holding them can be named.
 */
export function decodeMarkingInvalid(bytes) {
    let text = '';
    let start = 0;
    let index = 0;
    while (index < bytes.length) {
        const lead = bytes[index];
        const length = lead < 0x80
            ? 1
            : lead >= 0xc2 && lead <= 0xdf
                ? 2
                : lead >= 0xe0 && lead <= 0xef
                    ? 3
                    : lead >= 0xf0 && lead <= 0xf4
                        ? 4
                        : 0;
        let valid = length > 0 && index + length <= bytes.length;
        for (let k = 1; valid && k < length; k += 1)
            valid = (bytes[index + k] & 0xc0) === 0x80;
        if (valid && length >= 3) {
            const second = bytes[index + 1];
            // Overlong forms, UTF-16 surrogates (ED A0..BF) and code points past U+10FFFF.
            valid = !((lead === 0xe0 && second < 0xa0) ||
                (lead === 0xed && second >= 0xa0) ||
                (lead === 0xf0 && second < 0x90) ||
                (lead === 0xf4 && second >= 0x90));
        }
        if (valid) {
            index += length;
            continue;
        }
        text += bytes.toString('utf8', start, index) + String.fromCharCode(0xdc00 | lead);
        index += 1;
        start = index;
    }
    return text + bytes.toString('utf8', start);
}
/** String.prototype.isWellFormed (ES2024; Node 20+): false when the text holds a lone surrogate. */
const wellFormed = (text) => text.isWellFormed();
const illFormed = (text) => !wellFormed(text);
/**
 * The fields (`body.owner`, `querystring.search.1`) under `value` whose text or member name `offends`. A
 * member name that offends is reported as if it were the member's value.
 */
export function offendingTextFields(part, value, offends) {
    const found = [];
    // A worklist, not recursion: a deeply nested body must not overflow the call stack.
    const pending = [[part, value]];
    for (let index = 0; index < pending.length; index += 1) {
        const [field, item] = pending[index];
        if (typeof item === 'string') {
            if (offends(item))
                found.push(field);
        }
        else if (item !== null && typeof item === 'object') {
            for (const [key, child] of Object.entries(item))
                pending.push([`${field}.${key}`, offends(key) ? key : child]);
        }
    }
    return found;
}
/**
 * Whether any text or member name under `value` offends: what `offendingTextFields` finds, without naming
 * it. It runs on every request's path and query, so clean flat input allocates nothing.
 */
export function anyTextOffends(value, offends) {
    if (typeof value === 'string')
        return offends(value);
    if (value === null || typeof value !== 'object')
        return false;
    let pending;
    for (let item = value; item !== undefined; item = pending?.pop()) {
        for (const key in item) {
            if (!Object.hasOwn(item, key))
                continue;
            if (offends(key))
                return true;
            const child = item[key];
            if (typeof child === 'string') {
                if (offends(child))
                    return true;
            }
            else if (child !== null && typeof child === 'object') {
                pending ??= [];
                pending.push(child);
            }
        }
    }
    return false;
}
/** The fields (`body.owner`, `querystring.search`) under `value` whose text or member name is not well-formed. */
export const malformedTextFields = (part, value) => offendingTextFields(part, value, illFormed);
/** Whether any text under `value` is not well-formed (see `anyTextOffends`). */
export const anyMalformedText = (value) => anyTextOffends(value, illFormed);
/** A JSON text may hold a lone surrogate only as an escape (raw ones are invalid UTF-8): a cheap pre-check. */
export const mayHoldSurrogateEscape = (json) => /\\u[dD][89a-fA-F]/.test(json);
export { isUtf8 };
//# sourceMappingURL=text.js.map