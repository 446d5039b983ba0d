import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/clients/api-client/errors.js';
import { apiErrorText, problemText, usageText } from '../../src/clients/cli/explain.js';
import { REQUIREMENT_STATUSES } from '../../src/shared/vocabulary.js';

/** A command shaped like `comply evidence add`, under a root with the global --org. */
function evidenceAdd() {
  const root = new Command('comply').option('--org <orgId>');
  const add = root
    .command('add')
    .argument('<controlId>')
    .option('--expires <date>')
    .option('--file-url <url>')
    .option('--limit <n>')
    .addOption(new Option('--type <type>').choices(['attestation', 'document', 'link']));
  add.addArgument(new Argument('<status>').choices(REQUIREMENT_STATUSES));
  return add;
}

const refused = (
  fields: { field: string; message: string }[],
  message = `${fields[0].field} ${fields[0].message}`,
) => new ApiError(400, 'BAD_REQUEST', message, { fields });

const noClient = () => {
  throw new Error('no call expected');
};

describe("the daemon's refusals in words", () => {
  it.each([
    [
      'must match pattern "^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$"',
      'use a date like 2027-01-27 or a date-time like 2027-01-27T09:30:00Z',
    ],
    [
      'must match pattern "^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$"',
      'use a UTC date-time with milliseconds like 2027-01-27T09:30:00.000Z',
    ],
    ['must match pattern "^[0-9a-f]{64}$"', 'use a SHA-256 hash: 64 hexadecimal digits'],
    [
      'must match pattern "^[Hh][Tt][Tt][Pp][Ss]?://"',
      'use an http(s) URL like https://example.com/policy.pdf',
    ],
    ['must match pattern "\\S"', 'must not be blank'],
    ['must match pattern "^x+y$"', 'is not in the form this field takes'],
    ['must match format "email"', 'use an email address like dana@example.com'],
    ['must be <= 200', 'must be at most 200'],
    ['must be >= 1', 'must be at least 1'],
    ['must be integer', 'must be a whole number'],
    ['must NOT have fewer than 1 characters', 'must not be empty'],
    ['must NOT have more than 64 characters', 'must be at most 64 characters long'],
    ["must have required property 'reviewer'", 'is required'],
    ['must be equal to one of the allowed values', 'is not one of the values it takes (see --help)'],
    ['must be one of: L0, L2', 'must be one of: L0, L2'],
    ['is required for document evidence', 'is required for document evidence'],
  ])('%s → %s', (message, words) => {
    expect(problemText(message)).toBe(words);
  });

  it('names the option that sent the field, and lists its allowed values', async () => {
    const command = evidenceAdd();
    const text = await apiErrorText(
      refused([
        { field: 'body.expiresAt', message: 'must match pattern "^\\d{4}-\\d{2}-\\d{2}$"' },
        { field: 'querystring.limit', message: 'must be <= 200' },
        { field: 'body.type', message: 'must be equal to one of the allowed values' },
        { field: 'body.status', message: 'must be equal to one of the allowed values' },
        { field: 'params.orgId', message: 'must NOT have more than 64 characters' },
        { field: 'body.controls.0.note', message: 'must be string' },
      ]),
      { command, client: noClient },
    );
    expect(text.split('\n')).toEqual([
      '--expires: use a date like 2027-01-27 or a date-time like 2027-01-27T09:30:00Z',
      '--limit must be at most 200',
      '--type must be one of: attestation, document, link',
      `status must be one of: ${REQUIREMENT_STATUSES.join(', ')}`,
      '--org must be at most 64 characters long',
      'controls[0].note must be text',
    ]);
  });

  it("keeps the daemon's own sentence when it says more than its note on the field", async () => {
    const command = evidenceAdd();
    const future = refused(
      [{ field: 'body.expiresAt', message: 'in the past' }],
      'expiresAt must be in the future',
    );
    expect(await apiErrorText(future, { command, client: noClient })).toBe('--expires must be in the future');
    const period = refused(
      [{ field: 'body.period.to', message: 'not after from' }],
      'The period must end after it starts',
    );
    expect(await apiErrorText(period, { command, client: noClient })).toBe(
      'The period must end after it starts',
    );
  });

  it('keeps the plain details beside the fields: a reason code, the key concerned', async () => {
    const revoked = new ApiError(400, 'BAD_REQUEST', 'The signing key has been revoked', {
      fields: [{ field: 'body.signature', message: 'The signing key has been revoked' }],
      reason: 'revoked_key',
      keyId: 'sk-1',
    });
    expect(await apiErrorText(revoked, { client: noClient })).toBe(
      'The signing key has been revoked (reason: revoked_key, keyId: sk-1)',
    );
  });

  it('leaves other failures as they were: message, status and code', async () => {
    const conflict = new ApiError(409, 'CONFLICT', 'Already exists', { label: 'x' });
    expect(await apiErrorText(conflict, { client: noClient })).toBe(
      'Already exists (409 CONFLICT) {"label":"x"}',
    );
  });
});

describe("commander's refusals in the same words", () => {
  it('an option value', () => {
    expect(
      usageText("error: option '--type <type>' argument 'video' is invalid. Allowed choices are a, b, c.\n"),
    ).toBe('error: --type must be one of: a, b, c (not "video")\n');
    expect(
      usageText("error: option '-f, --from <date>' argument 'x' is invalid. use a date like 2027-01-27\n"),
    ).toBe('error: --from: use a date like 2027-01-27 (not "x")\n');
  });

  it('an argument value', () => {
    expect(
      usageText(
        "error: command-argument value 'done' is invalid for argument 'status'. Allowed choices are a, b.\n",
      ),
    ).toBe('error: status must be one of: a, b (not "done")\n');
  });

  it('anything else as given', () => {
    expect(usageText("error: unknown option '--within'\n")).toBe("error: unknown option '--within'\n");
  });
});
