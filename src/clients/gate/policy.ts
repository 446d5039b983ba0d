import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import type { Policy } from './policy.schema.js';
import validate from './policy.validator.js';

/** A policy that cannot be used: the file is missing, not JSON, or breaks the schema. Exit code 2. */
export class PolicyError extends Error {}

/** `$.frameworks["iso-42001"].minScore` from the JSON pointer `/frameworks/iso-42001/minScore`. */
export function jsonPath(pointer: string): string {
  if (!pointer) return '$';
  return `$${pointer
    .split('/')
    .slice(1)
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((key) =>
      /^\d+$/.test(key)
        ? `[${key}]`
        : /^[A-Za-z_$][\w$]*$/.test(key)
          ? `.${key}`
          : `[${JSON.stringify(key)}]`,
    )
    .join('')}`;
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return `${jsonPath(`${error.instancePath}/${String(params.additionalProperty)}`)}: is not a known member`;
  }
  if (error.keyword === 'required') {
    return `${jsonPath(`${error.instancePath}/${String(params.missingProperty)}`)}: is required`;
  }
  if (error.keyword === 'enum') {
    return `${jsonPath(error.instancePath)}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  }
  if (error.keyword === 'minProperties' && error.instancePath.startsWith('/frameworks/')) {
    return `${jsonPath(error.instancePath)}: must hold at least one rule (minScore, minDirectScore, maxCriticalGaps, maxImportantGaps)`;
  }
  if (error.keyword === 'minProperties' && error.instancePath === '/risks') {
    return `${jsonPath(error.instancePath)}: must hold at least one rule (maxUnacceptedResidual, noLapsedAcceptances, noOverdueTreatments)`;
  }
  return `${jsonPath(error.instancePath)}: ${error.message ?? 'is invalid'}`;
}

/** Every problem of a parsed policy, one line each, naming the JSON path of the bad member. */
export function policyProblems(policy: unknown): string[] {
  if (validate(policy)) return [];
  return [...new Set((validate.errors ?? []).map(describe))];
}

/** Line and column of a character offset, for JSON syntax errors. */
function position(text: string, offset: number): string {
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1}`;
}

export interface LoadedPolicy {
  file: string;
  text: string;
  policy: Policy;
}

export function loadPolicy(file: string): LoadedPolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new PolicyError(
      `cannot read the policy file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message.replace(/ \(line \d+ column \d+\)$/, '');
    const offset = /position (\d+)/.exec(message)?.[1];
    throw new PolicyError(
      `${file} is not valid JSON${offset ? ` (${position(text, Number(offset))})` : ''}: ${message}`,
    );
  }
  const problems = policyProblems(parsed);
  if (problems.length) {
    throw new PolicyError(
      `${file} does not follow the policy schema (comply.policy.schema.json):\n  ${problems.join('\n  ')}`,
    );
  }
  return { file, text, policy: parsed as Policy };
}

/**
 * The 1-based line of the member a JSON path names, found by walking the keys in order through the text:
 * where SARIF results point in the policy file. Undefined when the member is not in the file (a rule given
 * by a flag).
 */
export function lineOf(text: string, path: string[]): number | undefined {
  let offset = 0;
  for (const key of path) {
    const found = /^\d+$/.test(key) ? offset : text.indexOf(JSON.stringify(key), offset);
    if (found < 0) return undefined;
    offset = found;
  }
  return text.slice(0, offset).split('\n').length;
}
