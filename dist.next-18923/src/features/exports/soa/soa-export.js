import { renderSoa } from './index.js';
/** Evidence references listed per control in a Statement of Applicability; the rest are counted. */
export const SOA_EVIDENCE_LIMIT = 50;
/** The Statement of Applicability in one of its four formats. */
export async function produceSoaExport(data, format) {
    const document = await renderSoa(data, format);
    return {
        contentType: document.contentType,
        fileName: document.fileName,
        body: typeof document.body === 'string' ? Buffer.from(document.body, 'utf8') : document.body,
    };
}
//# sourceMappingURL=soa-export.js.map