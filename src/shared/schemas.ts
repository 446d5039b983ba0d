import { Type } from 'typebox';
import { EVIDENCE_TYPES, INTERVALS, MEMBER_ROLES, REQUIREMENT_STATUSES } from './vocabulary.js';

/** Schemas shared by several features. Feature-specific shapes live beside their routes. */

export const ErrorEnvelopeSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Record(Type.String(), Type.Unknown()),
    }),
  },
  { description: 'Every error, in both API areas' },
);

/** Standard error responses; spread into a route's `response` so OpenAPI lists them. */
export const errorResponses = {
  400: ErrorEnvelopeSchema,
  401: ErrorEnvelopeSchema,
  403: ErrorEnvelopeSchema,
  404: ErrorEnvelopeSchema,
  409: ErrorEnvelopeSchema,
  429: ErrorEnvelopeSchema,
  500: ErrorEnvelopeSchema,
  503: ErrorEnvelopeSchema,
};

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const OrgId = Type.String({ minLength: 1, maxLength: 64, description: 'Organization identifier' });
export const OrgIdParam = Type.Object({ orgId: OrgId });

export const Identifier = (description: string) =>
  Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$', description });

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/**
 * PostgreSQL text cannot hold NUL, and lone surrogates cannot be encoded or canonicalised: refuse both at
 * the edge instead of failing deeper down. (Ajv matches in Unicode mode, so paired surrogates pass.)
 */
export const PlainText = (options: { minLength?: number; maxLength: number; description?: string }) =>
  Type.String({ pattern: '^[^\\u0000\\uD800-\\uDFFF]*$', ...options });

/** A calendar date (UTC midnight) or an RFC 3339 date-time; parsed and range-checked by `parseInstant`. */
export const InstantString = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$',
    description: `${description} (ISO 8601 date or date-time; a date means 00:00 UTC)`,
  });

export const EvidenceTypeSchema = Type.Enum(EVIDENCE_TYPES, { description: EVIDENCE_TYPES.join(' | ') });

export const CountsSchema = Type.Object({
  implemented: Type.Integer(),
  inProgress: Type.Integer(),
  notStarted: Type.Integer(),
  notApplicable: Type.Integer(),
});

export const ControlStatusSchema = Type.Enum(REQUIREMENT_STATUSES, {
  description: REQUIREMENT_STATUSES.join(' | '),
});

export const ControlId = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Annex A control id, e.g. A.6.2.8',
});

export const EvidenceRefSchema = Type.Object({
  evidenceId: Type.String(),
  type: Type.String(),
  title: Type.String(),
  createdAt: Timestamp,
  expired: Type.Boolean(),
});

export const IntervalSchema = Type.Enum(INTERVALS, {
  description: 'daily (UTC days) | weekly (ISO weeks, Monday to Sunday, UTC) | monthly (UTC months)',
});

export const SidecarKeyId = Identifier('Sidecar key id, named in each L2 signature');

export const Score = Type.Union([Type.Number(), Type.Null()], {
  description: '100 × (implemented + 0.5 × in_progress) / applicable, one decimal; null when none applies',
});

export const MemberRoleSchema = Type.Enum(MEMBER_ROLES, {
  description:
    'viewer (read) | editor (read, write) | approver (read, write, approve) | owner (read, write, approve, ' +
    'export, members and keys) | auditor (read and export, until expiresAt, only frameworkIds when given)',
});

/** A date-time in a request body (RFC 3339); services check its range with `bodyInstant`. */
export const DateTimeString = (description: string) => Type.String({ format: 'date-time', description });

/** A requirement of any framework, built in or imported, as bodies name it. */
export const RequirementRefSchema = Type.Object(
  {
    frameworkId: Type.String({ minLength: 1, maxLength: 128 }),
    requirementId: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false },
);
