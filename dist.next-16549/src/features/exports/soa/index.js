export { fontRuns } from './pdf-fonts.js';
export { renderSoa, soaFileName } from './soa.js';
export { isSoaFormat, SOA_FORMATS, UnknownSoaFormatError, } from './soa.types.js';
export { guardCsvCell, SOA_CSV_COLUMNS } from './soa-csv.renderer.js';
//# sourceMappingURL=index.js.map