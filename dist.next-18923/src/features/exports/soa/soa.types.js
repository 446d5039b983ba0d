import { SOA_FORMATS } from '../../../shared/vocabulary.js';
export { SOA_FORMATS };
export function isSoaFormat(value) {
    return typeof value === 'string' && SOA_FORMATS.includes(value);
}
export class UnknownSoaFormatError extends Error {
    format;
    constructor(format) {
        super(`Unknown Statement of Applicability format ${JSON.stringify(format)}; use one of ${SOA_FORMATS.join(', ')}`);
        this.format = format;
        this.name = 'UnknownSoaFormatError';
    }
}
//# sourceMappingURL=soa.types.js.map