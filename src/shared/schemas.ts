import { Type } from 'typebox';

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
