import { Type } from 'typebox';
import {
  ControlId,
  Identifier,
  Nullable,
  OrgId,
  PlainText,
  SidecarKeyId,
  Timestamp,
} from '../../shared/schemas.js';

export const MAX_LIST_LIMIT = 1000;
export const DEFAULT_LIST_LIMIT = 50;
export const MAX_CONTROLS_PER_ATTESTATION = 64;

export const LevelSchema = Type.Union([Type.Literal('L0'), Type.Literal('L2')], {
  description: 'L0: unsigned self-report; L2: signed by a registered sidecar key (Ed25519)',
});
export const AttestationId = Identifier('Attestation id, chosen by the sidecar; the idempotency key');
export const EpochId = Identifier('Epoch the attestation belongs to');

export const SignatureSchema = Type.Object(
  {
    alg: Type.String({ minLength: 1, maxLength: 32, description: 'Ed25519' }),
    keyId: SidecarKeyId,
    value: Type.String({ minLength: 1, maxLength: 200, description: 'Base64 of the 64 signature bytes' }),
  },
  { additionalProperties: false },
);

export const AttestationBodySchema = Type.Object(
  {
    attestationId: Type.Optional(AttestationId),
    level: LevelSchema,
    epochId: EpochId,
    systemId: Type.Optional(
      PlainText({
        minLength: 1,
        maxLength: 200,
        description:
          "AI system the attestation is about: an AI system's systemId, or its name (ignoring case), " +
          'which is stored as the systemId',
      }),
    ),
    controlIds: Type.Array(ControlId, {
      minItems: 1,
      maxItems: MAX_CONTROLS_PER_ATTESTATION,
      uniqueItems: true,
      description: 'Controls this attestation is evidence for',
    }),
    timestamp: Type.String({
      // Year 0000 has no place in PostgreSQL's calendar.
      pattern: '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$',
      description:
        'When the sidecar observed what it attests: ISO 8601 UTC with milliseconds, years 0001–9999',
    }),
    claims: Type.Record(Type.String(), Type.Unknown(), { description: 'What the sidecar attests' }),
    signature: Type.Optional(SignatureSchema),
  },
  {
    additionalProperties: false,
    description:
      'L2: `signature.value` is Ed25519 over the RFC 8785 canonical JSON of this body without `signature`',
  },
);

export const AttestationSchema = Type.Object({
  attestationId: Type.String(),
  level: LevelSchema,
  epochId: Type.String(),
  systemId: Nullable(Type.String({ description: "The AI system's id" })),
  systemIdAsPosted: Type.Optional(
    Type.String({
      description:
        'The systemId as the body gave it, when it named the system by name: the signed content holds this',
    }),
  ),
  controlIds: Type.Array(Type.String()),
  timestamp: Timestamp,
  claims: Type.Record(Type.String(), Type.Unknown()),
  signature: Nullable(
    Type.Object({ alg: Type.Literal('Ed25519'), keyId: Type.String(), value: Type.String() }),
  ),
  contentHash: Type.String({
    description: 'SHA-256 (hex) of the RFC 8785 canonical JSON of the body as posted, without `signature`',
  }),
  serverAssignedId: Type.Boolean({
    description: 'The body had no attestationId, so the signed content has none either',
  }),
  receivedAt: Timestamp,
});

export const AttestationParams = Type.Object({ orgId: OrgId, attestationId: AttestationId });
export const EpochParams = Type.Object({ orgId: OrgId, epochId: EpochId });

export const AttestationListQuery = Type.Object({
  level: Type.Optional(LevelSchema),
  epochId: Type.Optional(EpochId),
  systemId: Type.Optional(
    PlainText({
      minLength: 1,
      maxLength: 200,
      description:
        "Only the attestations about this AI system (its systemId, as an attestation's `systemId` holds it)",
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Earliest timestamp, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Latest timestamp, inclusive' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: '`nextCursor` of the previous page; costs O(page) however deep (unlike offset)',
    }),
  ),
  includeTotal: Type.Optional(
    Type.Boolean({ description: 'Also count every match (costs O(matches), so off by default)' }),
  ),
});

export const AttestationListSchema = Type.Object({
  attestations: Type.Array(AttestationSchema, { description: 'Newest first (timestamp, then id)' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next page; null on the last' })),
  total: Type.Optional(Type.Integer({ description: 'Present with includeTotal=true' })),
});

export const EpochSchema = Type.Object({
  orgId: Type.String(),
  epochId: Type.String(),
  count: Type.Integer(),
  levels: Type.Object({ L0: Type.Integer(), L2: Type.Integer() }),
  firstTimestamp: Timestamp,
  lastTimestamp: Timestamp,
  merkleRoot: Type.String({ description: 'Hex SHA-256 Merkle Tree Hash (RFC 6962) of the epoch' }),
  merkle: Type.Object({
    algorithm: Type.String(),
    leaves: Type.String(),
    order: Type.String(),
  }),
});
