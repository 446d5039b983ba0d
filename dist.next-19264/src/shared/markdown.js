/**
 * CommonMark escaping for text that comes from users. Used for the Markdown SoA and for OSCAL fields,
 * whose markup-line and markup-multiline types are Markdown too.
 */
// Characters that open inline constructs (emphasis, code, links, HTML, entities, GFM tables/strikethrough).
const INLINE_SPECIALS = /[\\`*_[\]<>|~&]/g;
// A line start that would open a block: heading, list item, quote, setext underline (fences and `*`
// items are covered by the inline escapes).
const BLOCK_START = /^([#+\-=>]|\d{1,9}[.)])/;
export function escapeMarkdownInline(text) {
    return text.replace(INLINE_SPECIALS, '\\$&');
}
function escapeLineStart(line) {
    const match = BLOCK_START.exec(line);
    if (!match)
        return line;
    const marker = match[1];
    // A digit is not punctuation and cannot be escaped, so the list delimiter after it is.
    return /^\d/.test(marker)
        ? `${marker.slice(0, -1)}\\${marker.slice(-1)}${line.slice(marker.length)}`
        : `\\${line}`;
}
// Text that needs none of the work below: the common case, worth a fast path in large exports.
const NEEDS_WORK = /[\\`*_[\]<>|~&]|[^\S ]| {2}|^[ #+\-=>\d]| $/;
/** One line of text, safe to place anywhere inline (a table cell, a list item, a heading). */
export function escapeMarkdownLine(text) {
    if (!NEEDS_WORK.test(text))
        return text;
    return escapeLineStart(escapeMarkdownInline(text.replace(/\s+/g, ' ').trim()));
}
/** Paragraph text: each line escaped on its own; leading indentation dropped so it never becomes code. */
export function escapeMarkdownBlock(text) {
    return text
        .split(/\r\n|[\n\r\u2028\u2029]/)
        .map((line) => escapeLineStart(escapeMarkdownInline(line.trim())))
        .join('\n');
}
/** A GFM table cell: escaped inline text with line breaks kept as `<br>`. */
export function escapeMarkdownCell(text) {
    return text
        .split(/\r\n|[\n\r\u2028\u2029]/)
        .map((line) => escapeMarkdownLine(line))
        .filter((line) => line !== '')
        .join('<br>');
}
//# sourceMappingURL=markdown.js.map