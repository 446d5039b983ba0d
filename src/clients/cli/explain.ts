import type { Argument, Command, Option } from 'commander';
import { closest } from '../../shared/closest.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import type { ApiClient, ApiError } from '../api-client/client.js';
import { errorText } from '../api-client/format.js';
import { ctePath } from '../api-client/paths.js';
import type { FrameworkDetail, FrameworkList } from '../api-client/types.js';
import { DATE_HINT } from './cli.js';

/**
 * Failures in the words of the person at the terminal: the daemon's validation errors (JSON paths, regular
 * expressions, the validator's "must match pattern") and commander's refusals become sentences that name
 * the option they are about and say what to type instead; an id that does not exist gets the nearest one.
 * `--json` keeps the API's own error (main.ts).
 */

/** Where the daemon says a field sat in the request; the rest of its path is the field. */
const LOCATIONS = new Set(['body', 'querystring', 'params', 'headers', 'request']);

/** API fields the CLI takes from a global option of another name. */
const GLOBAL_FIELDS: Record<string, string> = { orgId: '--org' };

/** The command and its ancestors, nearest first: an API field may be a global option. */
function* lineage(command: Command | undefined): Generator<Command> {
  for (let current = command; current; current = current.parent ?? undefined) yield current;
}

interface Named {
  name: string;
  choices?: readonly string[];
}

/**
 * The names an option may carry for an API field: the field itself, or the field without the suffix that
 * says its type (`expiresAt` ← `--expires`, `effectiveDate` ← `--effective`, `systemIds` ← `--systems`).
 */
const namesFor = (field: string) => {
  const base = /^(.+?)(At|Date|Id|Ids)$/.exec(field)?.[1];
  return base ? [field, base, `${base}s`] : [field];
};

/** The option or argument of the command that sent an API field, as the person typed it. */
function optionOf(field: string, command: Command | undefined): Named | undefined {
  for (const name of namesFor(field)) {
    for (const current of lineage(command)) {
      const option = current.options.find((o: Option) => o.long && o.attributeName() === name);
      if (option?.long) return { name: option.long, choices: option.argChoices };
      const argument = current.registeredArguments.find((a: Argument) => a.name() === name);
      if (argument) return { name: argument.name(), choices: argument.argChoices };
    }
  }
  return GLOBAL_FIELDS[field] ? { name: GLOBAL_FIELDS[field] } : undefined;
}

/** `body.controls.0.status` → `controls[0].status`; a field one of the command's options sends → `--that`. */
function fieldOf(path: string, command: Command | undefined): Named {
  const segments = path.split('.');
  if (segments.length > 1 && LOCATIONS.has(segments[0])) segments.shift();
  if (segments.length === 1) return optionOf(segments[0], command) ?? { name: segments[0] };
  return {
    name: segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join(''),
  };
}

/** What a pattern of the API's schemas asks for, in words (never the expression itself). */
function patternHint(pattern: string): string {
  if (/\[0-9\]\{3\}Z|\\d\{3\}Z/.test(pattern)) {
    return 'use a UTC date-time with milliseconds like 2027-01-27T09:30:00.000Z';
  }
  if (/\\d\{4\}-\\d\{2\}-\\d\{2\}|\[0-9\]\{4\}-\[0-9\]\{2\}-\[0-9\]\{2\}/.test(pattern)) return DATE_HINT;
  if (pattern.includes('{8}-') && pattern.includes('{12}')) {
    return 'use an id like 123e4567-e89b-12d3-a456-426614174000';
  }
  if (pattern.includes('{64}')) return 'use a SHA-256 hash: 64 hexadecimal digits';
  if (/\[Hh\]\[Tt\]\[Tt\]\[Pp\]/.test(pattern))
    return 'use an http(s) URL like https://example.com/policy.pdf';
  if (pattern === '\\S') return 'must not be blank';
  if (pattern.includes('\\u0000')) return 'contains a character text cannot hold (a NUL or broken Unicode)';
  if (pattern.startsWith('^A\\.')) return 'use a domain like A.6';
  if (pattern.startsWith('^[^:]')) return 'use <frameworkId>:<requirementId>, e.g. "eu-ai-act:Art. 9"';
  if (/^\^\[0-9\]\{1,\d+\}\$$/.test(pattern)) return 'must be a whole number';
  if (pattern.startsWith('^[a-z0-9]')) return 'use lowercase letters, digits and hyphens, e.g. my-framework';
  if (pattern.startsWith('^[A-Za-z0-9]')) return "use letters, digits, '.', '_', ':' and '-'";
  return 'is not in the form this field takes';
}

const FORMAT_HINTS: Record<string, string> = {
  date: DATE_HINT,
  'date-time': DATE_HINT,
  uri: 'use a URL like https://example.com/policy.pdf',
  url: 'use a URL like https://example.com/policy.pdf',
  email: 'use an email address like dana@example.com',
  uuid: 'use an id like 123e4567-e89b-12d3-a456-426614174000',
};

const TYPES: Record<string, string> = {
  integer: 'must be a whole number',
  number: 'must be a number',
  string: 'must be text',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
};

const BOUNDS: Record<string, string> = {
  '>=': 'at least',
  '>': 'more than',
  '<=': 'at most',
  '<': 'less than',
};

/** The validator's wording of one problem, said for a person (`message` as given when it already is). */
export function problemText(message: string, choices?: readonly string[]): string {
  let match = /^must match pattern "(.*)"$/s.exec(message);
  if (match) return patternHint(match[1]);
  match = /^must match format "(.+)"$/.exec(message);
  if (match) return FORMAT_HINTS[match[1]] ?? `is not a valid ${match[1]}`;
  // The daemon names the values (`must be one of: a, b`); the option's own choices are said the same way.
  if (/^must be equal to (one of the allowed values|constant)$|^must be one of: /.test(message)) {
    if (choices?.length) return `must be one of: ${choices.join(', ')}`;
    return message.startsWith('must be one of: ')
      ? message
      : 'is not one of the values it takes (see --help)';
  }
  match = /^must be (integer|number|string|boolean|array|object)$/.exec(message);
  if (match) return TYPES[match[1]];
  match = /^must be (>=|>|<=|<) (\S+)$/.exec(message);
  if (match) return `must be ${BOUNDS[match[1]]} ${match[2]}`;
  match = /^must NOT have (fewer|more) than (\d+) (characters|items)$/.exec(message);
  if (match) {
    const [, side, count, unit] = match;
    if (side === 'fewer' && count === '1') return 'must not be empty';
    const what = unit === 'characters' ? `${count} characters long` : `${count} items`;
    return `must be ${side === 'fewer' ? 'at least' : 'at most'} ${what}`;
  }
  if (/^must have required property/.test(message)) return 'is required';
  if (message === 'must NOT have additional properties') return 'is not something this request takes';
  if (/^must NOT have duplicate items/.test(message)) return 'must not list an item twice';
  if (/^must match (exactly one|a) schema in (oneOf|anyOf)$/.test(message)) {
    return 'is not in a form this field takes';
  }
  return message;
}

/** `--from: use a date…`, `status must be one of: …`: a verb follows the name, an instruction a colon. */
const sentence = (name: string, problem: string) =>
  /^(must|is|are|needs|contains|has)\b/.test(problem) ? `${name} ${problem}` : `${name}: ${problem}`;

interface FieldIssue {
  field: string;
  message: string;
}

const fieldIssues = (error: ApiError): FieldIssue[] =>
  Array.isArray(error.details.fields)
    ? (error.details.fields as unknown[]).filter(
        (issue): issue is FieldIssue =>
          typeof (issue as FieldIssue)?.field === 'string' &&
          typeof (issue as FieldIssue).message === 'string',
      )
    : [];

/**
 * The daemon's own sentence about a field, when it reads better than its note on the field: with the field
 * named as the person typed it when the sentence opens with it ("expiresAt must be in the future"), as is
 * when it does not name the field at all ("The period must end after it starts"). Undefined otherwise.
 */
function ownWords(message: string, path: string, name: string): string | undefined {
  const bare = path.split('.').at(-1) ?? path;
  for (const prefix of [path, bare]) {
    if (message.startsWith(`${prefix} `)) return `${name}${message.slice(prefix.length)}`;
  }
  const mentions = message.includes(path) || message.split(/\W+/).includes(bare);
  return /^[A-Z]/.test(message) && !mentions ? message : undefined;
}

/** An id as the person would type it back: quoted when it holds a space. */
const quoted = (id: string) => (/\s/.test(id) ? `"${id}"` : id);

interface Missing {
  /** "no such control A.2.33" */
  text: string;
  id: string;
  /** The ids there are, from the API; a failure leaves the suggestion out. */
  candidates: () => Promise<string[]>;
}

/** What a 404 of a control, requirement or framework was looking for, and where its near ids are. */
function missingOf(error: ApiError, client: () => ApiClient): Missing | undefined {
  if (error.code !== 'RESOURCE_NOT_FOUND') return undefined;
  const { controlId, requirementId, frameworkId } = error.details;
  const kind = /^(.+) not found$/.exec(error.message)?.[1];
  const requirementsOf = async (framework: string) =>
    (await client().get<FrameworkDetail>(ctePath('frameworks', framework))).controls.map((c) => c.controlId);
  if (kind === 'Framework' && typeof frameworkId === 'string') {
    return {
      text: `no such framework ${quoted(frameworkId)}`,
      id: frameworkId,
      candidates: async () =>
        (await client().get<FrameworkList>(ctePath('frameworks'))).frameworks.map((f) => f.id),
    };
  }
  if (kind === 'Requirement' && typeof requirementId === 'string' && typeof frameworkId === 'string') {
    return {
      text: `no such requirement ${quoted(requirementId)} in ${frameworkId}`,
      id: requirementId,
      candidates: () => requirementsOf(frameworkId),
    };
  }
  if (kind === 'Control' && typeof controlId === 'string') {
    return {
      text: `no such control ${quoted(controlId)}`,
      id: controlId,
      candidates: () => requirementsOf(ISO_42001),
    };
  }
  return undefined;
}

/**
 * The lines `comply` prints for a failed call: each field the daemon refused, in words, naming the option
 * that sent it; a control, requirement or framework that does not exist, with the nearest id the API
 * knows; any other failure as before (message, status and code, details).
 */
export async function apiErrorText(
  error: ApiError,
  context: { command?: Command; client: () => ApiClient },
): Promise<string> {
  const issues = fieldIssues(error);
  if (error.status === 400 && issues.length) {
    // What else the daemon said plainly (a reason code, the key concerned) stays, for a search or a ticket.
    const extra = Object.entries(error.details).filter(
      ([name, value]) => name !== 'fields' && ['string', 'number', 'boolean'].includes(typeof value),
    );
    const more = extra.length ? ` (${extra.map(([name, value]) => `${name}: ${value}`).join(', ')})` : '';
    const lines = issues.map((issue) => {
      const field = fieldOf(issue.field, context.command);
      const problem = problemText(issue.message, field.choices);
      // The daemon's own words for one field ("expiresAt must be in the future") read better than its
      // note on the field ("in the past"): kept, with the field named as the person typed it.
      const own =
        issues.length === 1 && problem === issue.message
          ? ownWords(error.message, issue.field, field.name)
          : undefined;
      return own ?? sentence(field.name, problem);
    });
    return [`${lines[0]}${more}`, ...lines.slice(1)].join('\n');
  }
  const missing = missingOf(error, context.client);
  if (missing) {
    const near = await missing.candidates().then(
      (ids) => closest(missing.id, ids),
      () => undefined,
    );
    return near === undefined ? missing.text : `${missing.text} — did you mean ${quoted(near)}?`;
  }
  return errorText(error);
}

/** What `--json` prints for a failed call: the API's error envelope with its status, for scripts. */
export const apiErrorJson = (error: ApiError) =>
  JSON.stringify({
    error: { status: error.status, code: error.code, message: error.message, details: error.details },
  });

/**
 * Commander's refusal of an option or argument value, said the same way: `--from: use a date like …`,
 * `--type must be one of: …`, `status must be one of: …`, with the value given. Other messages as given.
 */
export function usageText(text: string): string {
  const option = /^error: option '([^']+)' argument '(.*)' is invalid\. (.*)$/s.exec(text.trimEnd());
  const argument = /^error: command-argument value '(.*)' is invalid for argument '([^']+)'\. (.*)$/s.exec(
    text.trimEnd(),
  );
  if (!option && !argument) return text;
  const [name, value, reason] = option
    ? [option[1].split(/[\s,|]+/).find((flag) => flag.startsWith('--')) ?? option[1], option[2], option[3]]
    : [argument?.[2] ?? '', argument?.[1] ?? '', argument?.[3] ?? ''];
  const choices = /^Allowed choices are (.*)\.$/s.exec(reason);
  const problem = choices ? `must be one of: ${choices[1]}` : reason;
  return `error: ${sentence(name, problem)} (not "${value}")\n`;
}
