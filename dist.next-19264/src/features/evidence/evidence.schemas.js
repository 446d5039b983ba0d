import { Type } from 'typebox';
import { ControlId, EvidenceTypeSchema, InstantString, OrgId, PlainText, Timestamp, } from '../../shared/schemas.js';
export const EvidenceParams = Type.Object({ orgId: OrgId, controlId: ControlId });
export const EvidenceItemParams = Type.Object({
    orgId: OrgId,
    controlId: ControlId,
    evidenceId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const EvidenceSchema = Type.Object({
    evidenceId: Type.String(),
    controlId: Type.String(),
    type: EvidenceTypeSchema,
    title: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    fileUrl: Type.Union([Type.String(), Type.Null()]),
    attestationId: Type.Union([Type.String(), Type.Null()], {
        description: 'The attestation this evidence came from, for type attestation',
    }),
    effectiveDate: Type.Union([Timestamp, Type.Null()], { description: 'From when the evidence is valid' }),
    expiresAt: Type.Union([Timestamp, Type.Null()], { description: 'When the evidence stops being valid' }),
    expired: Type.Boolean({ description: 'True once expiresAt has passed' }),
    createdAt: Timestamp,
    createdBy: Type.Union([Type.String(), Type.Null()], { description: 'Id of the API key that added it' }),
});
export const CreateEvidenceBody = Type.Object({
    type: EvidenceTypeSchema,
    title: PlainText({ minLength: 1, maxLength: 500 }),
    description: Type.Optional(PlainText({ maxLength: 10_000 })),
    fileUrl: Type.Optional(Type.String({
        format: 'uri',
        pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
        maxLength: 2048,
        description: 'Absolute http(s) URL of the stored file; required for document and link',
    })),
    effectiveDate: Type.Optional(InstantString('From when the evidence is valid')),
    expiresAt: Type.Optional(InstantString('When the evidence stops being valid; after effectiveDate')),
}, { additionalProperties: false });
export const EvidenceListQuery = Type.Object({
    type: Type.Optional(EvidenceTypeSchema),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1..200' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});
export const EvidenceListSchema = Type.Object({
    orgId: Type.String(),
    controlId: Type.String(),
    evidence: Type.Array(EvidenceSchema, { description: 'Newest first' }),
    total: Type.Integer({ description: 'All evidence of the control matching the filter' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
});
export const ExpiringEvidenceQuery = Type.Object({
    from: Type.Optional(InstantString('Earliest expiry listed; default now')),
    to: Type.Optional(InstantString('Latest expiry listed (exclusive); default 30 days after `from`')),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1..200' })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});
export const ExpiringEvidenceListSchema = Type.Object({
    orgId: Type.String(),
    from: Timestamp,
    to: Timestamp,
    evidence: Type.Array(Type.Object({
        evidenceId: Type.String(),
        frameworkId: Type.String(),
        requirementId: Type.String(),
        type: EvidenceTypeSchema,
        title: Type.String(),
        expiresAt: Timestamp,
        expired: Type.Boolean(),
    }), { description: 'Soonest expiry first (ties by id), across every framework' }),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
});
//# sourceMappingURL=evidence.schemas.js.map