import { defineEntity, p } from '@mikro-orm/core';

const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    keyId: p.string().primary(),
    /** null for platform keys, which act on every org. */
    orgId: p.string().nullable(),
    name: p.string().nullable(),
    scopes: p.array(),
    /** SHA-256 of the secret, hex; the secret itself is never stored. */
    keyHash: p.string().unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    revokedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
