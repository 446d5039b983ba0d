import type { ValidateFunction } from 'ajv';
import type { Policy } from './policy.schema.js';

/** The policy schema's validator, compiled ahead of time (policy.validator.js, written by a script). */
declare const validatePolicy: ValidateFunction<Policy>;
export default validatePolicy;
