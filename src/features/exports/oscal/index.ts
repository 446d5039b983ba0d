export {
  COMPLY_PROP_NS,
  OSCAL_FILES,
  OSCAL_UUID_NAMESPACE,
  OSCAL_VERSION,
} from '../../../platform/oscal/constants.js';
export {
  OSCAL_DOCUMENT_KINDS,
  OSCAL_ITEM_SCHEMAS,
  type OscalDocumentKind,
  type OscalItemKind,
  type OscalSchemaError,
  type OscalValidationResult,
  validateOscalDocument,
  validateOscalItem,
  warmOscalValidators,
} from '../../../platform/oscal/validation.js';
export type * from './oscal.types.js';
export { checkOscalConstraints, type OscalConstraintProblem } from './oscal-constraints.js';
export { type OscalFile, type WriteOscalOptions, writeOscalFiles } from './oscal-files.js';
export { buildOscalPackage } from './oscal-package.js';
export {
  assertValidOscalPackage,
  OscalValidationError,
  validateOscalPackage,
} from './oscal-package-validation.js';
export {
  checkOscalReferences,
  OSCAL_FILE_ORDER,
  type OscalFileName,
  OscalReferenceChecker,
  type OscalReferenceProblem,
} from './oscal-references.js';
