import { isSoaFormat, UnknownSoaFormatError } from './soa.types.js';
import { renderSoaCsv } from './soa-csv.renderer.js';
import { renderSoaJson } from './soa-json.renderer.js';
import { renderSoaMarkdown } from './soa-markdown.renderer.js';
import { renderSoaPdf } from './soa-pdf.renderer.js';
import { soaView } from './soa-view.js';
const FORMATS = {
    json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
    csv: { contentType: 'text/csv; charset=utf-8; header=present', extension: 'csv' },
    markdown: { contentType: 'text/markdown; charset=utf-8', extension: 'md' },
    pdf: { contentType: 'application/pdf', extension: 'pdf' },
};
/** `soa-<org>-<date>[-<snapshot>].<ext>`, limited to characters that need no quoting in a header. */
export function soaFileName(data, format) {
    const safe = (text) => text
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[-.]+|[-.]+$/g, '')
        .slice(0, 60) || 'x';
    const date = /^\d{4}-\d{2}-\d{2}/.exec(data.generatedAt)?.[0] ?? 'undated';
    const snapshot = data.snapshot ? `-${safe(data.snapshot.label)}` : '';
    return `soa-${safe(data.org.orgId)}-${date}${snapshot}.${FORMATS[format].extension}`;
}
/**
 * Renders the Statement of Applicability of an organization in one of the four formats. Throws an
 * UnknownSoaFormatError (a client error) for any other format.
 */
export async function renderSoa(data, format = 'json') {
    if (!isSoaFormat(format))
        throw new UnknownSoaFormatError(format);
    const view = soaView(data);
    const body = format === 'pdf'
        ? await renderSoaPdf(view)
        : format === 'csv'
            ? renderSoaCsv(view)
            : format === 'markdown'
                ? renderSoaMarkdown(view)
                : renderSoaJson(view);
    const fileName = soaFileName(data, format);
    return {
        format,
        contentType: FORMATS[format].contentType,
        fileName,
        contentDisposition: `attachment; filename="${fileName}"`,
        body,
    };
}
//# sourceMappingURL=soa.js.map