import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = formats;
export const OSCAL_DOCUMENT_KINDS = [
    'catalog',
    'profile',
    'ssp',
    'assessment-plan',
    'assessment-results',
    'mapping',
];
/**
 * Elements of the arrays that grow with the evidence, as the official schemas define them: large
 * documents validate their skeleton as a document and these one at a time (see oscal-files.ts).
 */
export const OSCAL_ITEM_SCHEMAS = {
    'ssp-resource': {
        kind: 'ssp',
        pointer: '#/definitions/oscal-ssp-oscal-metadata:back-matter/properties/resources/items',
    },
    observation: {
        kind: 'assessment-results',
        pointer: '#/definitions/oscal-ar-oscal-assessment-common:observation',
    },
};
let ajv;
const validators = new Map();
const schemaIds = new Map();
/** NIST's per-model schemas (draft-07), vendored beside this file; each is compiled on first use. */
function validatorFor(kind) {
    let validate = validators.get(kind);
    if (!validate) {
        ajv ??= createAjv();
        const file = new URL(`./schemas/oscal_${kind}_schema.json`, import.meta.url);
        const schema = JSON.parse(readFileSync(file, 'utf8'));
        validate = ajv.compile(schema);
        validators.set(kind, validate);
        schemaIds.set(kind, schema.$id);
    }
    return validate;
}
/** The validator of one array element, taken from its document's compiled schema (no second copy). */
function itemValidatorFor(item) {
    let validate = validators.get(item);
    if (!validate) {
        const { kind, pointer } = OSCAL_ITEM_SCHEMAS[item];
        validatorFor(kind);
        validate = ajv?.getSchema(`${schemaIds.get(kind)}${pointer}`);
        if (!validate)
            throw new Error(`No definition ${pointer} in the ${kind} schema`);
        validators.set(item, validate);
    }
    return validate;
}
function createAjv() {
    // strict mode rejects the NIST schemas; the unicode flag (default) is needed for their \p{L} patterns.
    const instance = new Ajv({ strict: false, allErrors: true });
    addFormats(instance);
    return instance;
}
function describe(error) {
    const detail = error.keyword === 'additionalProperties'
        ? `: ${String(error.params.additionalProperty)}`
        : error.keyword === 'enum'
            ? `: ${JSON.stringify(error.params.allowedValues)}`
            : '';
    return { path: error.instancePath || '/', message: `${error.message ?? error.keyword}${detail}` };
}
/** Shared by every valid result: item validation runs hundreds of thousands of times per export. */
const VALID = Object.freeze({ valid: true, errors: Object.freeze([]) });
function run(validate, value) {
    if (validate(value))
        return VALID;
    return { valid: false, errors: (validate.errors ?? []).map(describe) };
}
/** Validates one document against the official OSCAL JSON schema of its model. */
export function validateOscalDocument(kind, document) {
    return run(validatorFor(kind), document);
}
/** Validates one element of a large array against its definition in the official schema. */
export function validateOscalItem(item, value) {
    return run(itemValidatorFor(item), value);
}
/** Compiles the schemas ahead of the first export, so that no request pays for it. */
export function warmOscalValidators(kinds = OSCAL_DOCUMENT_KINDS) {
    for (const kind of kinds)
        validatorFor(kind);
    for (const [item, { kind }] of Object.entries(OSCAL_ITEM_SCHEMAS)) {
        if (kinds.includes(kind))
            itemValidatorFor(item);
    }
}
/** Schema errors of a document as one line each (empty when valid), for messages and `details`. */
export function oscalSchemaErrors(kind, document) {
    return validateOscalDocument(kind, document).errors.map((error) => `${error.path} ${error.message}`);
}
//# sourceMappingURL=validation.js.map