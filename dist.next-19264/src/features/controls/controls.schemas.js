import { Type } from 'typebox';
import { ControlId, ControlStatusSchema, EvidenceRefSchema, Nullable, OrgId, Timestamp, } from '../../shared/schemas.js';
export const DomainSchema = Type.String({
    pattern: '^A\\.[0-9]{1,2}$',
    description: 'Annex A domain code, e.g. A.4',
});
export const ControlIdParams = Type.Object({ controlId: ControlId });
export const OrgControlParams = Type.Object({ orgId: OrgId, controlId: ControlId });
export const ControlSchema = Type.Object({
    controlId: Type.String(),
    domain: Type.String(),
    domainTitle: Type.String(),
    title: Type.String(),
    description: Type.String(),
    rank: Type.Optional(Type.Number({ description: 'Full-text relevance, present when searching' })),
});
export const ControlListQuery = Type.Object({
    domain: Type.Optional(DomainSchema),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Ranked full-text search' })),
});
export const ControlListSchema = Type.Object({
    controls: Type.Array(ControlSchema),
    total: Type.Integer(),
});
export const OrgControlSchema = Type.Object({
    controlId: Type.String(),
    domain: Type.String(),
    title: Type.String(),
    status: ControlStatusSchema,
    applicable: Type.Boolean(),
    justification: Nullable(Type.String()),
    reviewer: Nullable(Type.String()),
    updatedAt: Timestamp,
    evidenceCount: Type.Integer(),
    evidenceExpired: Type.Boolean({
        description: 'True when the control has evidence and all of it has expired',
    }),
    evidence: Type.Array(EvidenceRefSchema, { description: 'The latest few evidence items, newest first' }),
});
export const OrgControlListQuery = Type.Object({
    status: Type.Optional(ControlStatusSchema),
    applicable: Type.Optional(Type.Boolean()),
    domain: Type.Optional(DomainSchema),
});
export const OrgControlListSchema = Type.Object({
    orgId: Type.String(),
    controls: Type.Array(OrgControlSchema),
});
export const ApplicabilityBody = Type.Object({
    applicable: Type.Boolean(),
    justification: Type.String({
        minLength: 1,
        maxLength: 4000,
        description: 'Why the control does or does not apply',
    }),
    reviewer: Type.String({ minLength: 1, maxLength: 200, description: 'User identifier of who decided' }),
}, { additionalProperties: false });
export const StatusBody = Type.Object({
    status: ControlStatusSchema,
    reviewer: Type.String({ minLength: 1, maxLength: 200 }),
    note: Type.Optional(Type.String({ maxLength: 4000 })),
}, { additionalProperties: false });
//# sourceMappingURL=controls.schemas.js.map