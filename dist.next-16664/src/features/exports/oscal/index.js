export { COMPLY_PROP_NS, OSCAL_FILES, OSCAL_UUID_NAMESPACE, OSCAL_VERSION, } from '../../../platform/oscal/constants.js';
export { OSCAL_DOCUMENT_KINDS, OSCAL_ITEM_SCHEMAS, validateOscalDocument, validateOscalItem, warmOscalValidators, } from '../../../platform/oscal/validation.js';
export { checkOscalConstraints } from './oscal-constraints.js';
export { writeOscalFiles } from './oscal-files.js';
export { buildOscalPackage } from './oscal-package.js';
export { assertValidOscalPackage, OscalValidationError, validateOscalPackage, } from './oscal-package-validation.js';
export { checkOscalReferences, OSCAL_FILE_ORDER, OscalReferenceChecker, } from './oscal-references.js';
//# sourceMappingURL=index.js.map