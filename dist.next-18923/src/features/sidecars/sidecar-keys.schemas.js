import { Type } from 'typebox';
import { Identifier, Nullable, OrgId, SidecarKeyId, Timestamp } from '../../shared/schemas.js';
export const RegisterSidecarKeyBody = Type.Object({
    publicKey: Type.String({
        minLength: 1,
        maxLength: 4096,
        description: 'Ed25519 public key: PEM (SPKI) or the base64 of its 32 raw bytes',
    }),
    keyId: Type.Optional(Identifier('Id to register the key under; by default `sk-` and the first 24 hex digits of the SHA-256 of ' +
        'the raw public key, so registering the same key twice is a conflict')),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false });
export const SidecarKeySchema = Type.Object({
    keyId: Type.String(),
    orgId: Type.String(),
    name: Nullable(Type.String()),
    algorithm: Type.Literal('Ed25519'),
    publicKey: Type.String({ description: 'PEM (SPKI)' }),
    fingerprint: Type.String({ description: 'SHA256: + base64 of the digest of the raw key bytes' }),
    createdAt: Timestamp,
    revokedAt: Nullable(Timestamp),
});
export const SidecarKeyListSchema = Type.Object({ sidecarKeys: Type.Array(SidecarKeySchema) });
export const SidecarKeyParams = Type.Object({ orgId: OrgId, keyId: SidecarKeyId });
//# sourceMappingURL=sidecar-keys.schemas.js.map