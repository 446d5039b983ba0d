import { escapeMarkdownBlock, escapeMarkdownLine } from '../../../shared/markdown.js';
/** A schema `string`: non-empty, one line, no edge whitespace. */
export function oscalString(value, fallback) {
    const text = (value ?? '').replace(/\s+/g, ' ').trim();
    return text === '' ? fallback : text;
}
/** A `markup-line` from user text: one line of escaped Markdown. */
export function markupLine(value, fallback) {
    const text = escapeMarkdownLine(value ?? '');
    return text === '' ? fallback : text;
}
/** A `markup-multiline` from user text: escaped Markdown paragraphs. */
export function markupMultiline(value, fallback) {
    const text = escapeMarkdownBlock((value ?? '').trim());
    return text === '' ? fallback : text;
}
const CANONICAL_INSTANT = /^(19|2\d)\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** Timestamps normalised to UTC with milliseconds, which always carries the offset OSCAL requires. */
export function oscalDateTime(value) {
    if (CANONICAL_INSTANT.test(value))
        return value;
    const date = new Date(value);
    if (Number.isNaN(date.getTime()))
        throw new Error(`Invalid timestamp in export data: ${value}`);
    return date.toISOString();
}
/** The hex SHA-256 digest of a content hash written as `hex`, `sha256:hex` or `sha-256:hex`. */
export function sha256Hex(value) {
    const match = /^(?:sha-?256:)?([0-9a-f]{64})$/i.exec(value?.trim() ?? '');
    return match ? match[1].toLowerCase() : null;
}
//# sourceMappingURL=oscal-text.js.map