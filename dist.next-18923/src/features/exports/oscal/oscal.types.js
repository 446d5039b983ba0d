/**
 * The subset of the OSCAL 1.2.1 JSON model that the export produces. Optional arrays are omitted rather
 * than left empty, because the schemas reject empty arrays.
 */
export {};
//# sourceMappingURL=oscal.types.js.map