import { Type } from 'typebox';
import { Nullable, OrgId, Timestamp } from '../../shared/schemas.js';
import { SCOPES } from '../../shared/vocabulary.js';
export const ScopeSchema = Type.Union([
    Type.Literal('read'),
    Type.Literal('write'),
    Type.Literal('attest'),
    Type.Literal('export'),
    Type.Literal('admin'),
], { description: 'read | write | attest | export | admin (admin: platform keys only)' });
export const CreateKeyBody = Type.Object({
    scopes: Type.Array(ScopeSchema, { minItems: 1, maxItems: SCOPES.length, uniqueItems: true }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false });
export const CreatedKeySchema = Type.Object({
    keyId: Type.String(),
    key: Type.String({ description: 'The secret; shown only in this response' }),
    orgId: Nullable(Type.String()),
    name: Nullable(Type.String()),
    scopes: Type.Array(Type.String()),
    createdAt: Timestamp,
});
export const KeySchema = Type.Object({
    keyId: Type.String(),
    orgId: Nullable(Type.String()),
    name: Nullable(Type.String()),
    scopes: Type.Array(Type.String()),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
});
export const KeyListSchema = Type.Object({ keys: Type.Array(KeySchema) });
export const KeyParams = Type.Object({ orgId: OrgId, keyId: Type.String({ minLength: 1, maxLength: 64 }) });
export const PrincipalSchema = Type.Object({
    type: Type.Literal('key'),
    keyId: Type.String(),
    orgId: Nullable(Type.String({ description: "The key's organization; null for a platform key" })),
    platform: Type.Boolean({ description: 'A platform key: every organization' }),
    scopes: Type.Array(Type.String(), { description: 'The scopes the key was issued with' }),
    can: Type.Object({
        read: Type.Boolean(),
        write: Type.Boolean(),
        attest: Type.Boolean(),
        export: Type.Boolean(),
        admin: Type.Boolean(),
    }, { description: 'Each permission the key holds, admin including every other' }),
});
//# sourceMappingURL=keys.schemas.js.map