import { Type } from 'typebox';
import { CountsSchema, Identifier, Nullable, Timestamp } from '../../shared/schemas.js';
export const CreateOrgBody = Type.Object({
    orgId: Identifier('Caller-chosen identifier, e.g. "acme"'),
    name: Type.String({ minLength: 1, maxLength: 200 }),
}, { additionalProperties: false });
export const OrgSchema = Type.Object({
    orgId: Type.String(),
    name: Type.String(),
    createdAt: Timestamp,
    compliance: Type.Object({
        score: Nullable(Type.Number({ description: '0–100, one decimal; null when no control is applicable' })),
        counts: CountsSchema,
        controlCount: Type.Integer(),
    }),
});
export const OrgListSchema = Type.Object({
    orgs: Type.Array(Type.Object({ orgId: Type.String(), name: Type.String(), createdAt: Timestamp })),
});
//# sourceMappingURL=orgs.schemas.js.map