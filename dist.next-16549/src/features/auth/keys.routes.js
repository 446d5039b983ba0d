import { Type } from 'typebox';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from './auth.plugin.js';
import { CreatedKeySchema, CreateKeyBody, KeyListSchema, KeyParams, KeySchema } from './keys.schemas.js';
import { createKey, getKey, listKeys, revokeKey } from './keys.service.js';
const keyView = (key) => ({
    keyId: key.keyId,
    orgId: key.orgId,
    name: key.name,
    scopes: key.scopes,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
});
/** An org's API keys (under the org scope). */
export const keyRoutes = async function keyRoutes(app, { ctx }) {
    app.post('/orgs/:orgId/keys', {
        config: { scope: 'manage' },
        schema: {
            tags: ['keys'],
            summary: 'Issue an API key for an organization (the secret is returned once)',
            params: OrgIdParam,
            body: CreateKeyBody,
            response: { 201: CreatedKeySchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const key = await createKey(em, {
            orgId: request.params.orgId,
            ...request.body,
            createdBy: principalOf(request).actor.id,
        });
        request.log.info({ keyId: key.keyId, orgId: key.orgId, scopes: key.scopes }, 'api key created');
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(request.params.orgId)}/keys/${encodeURIComponent(key.keyId)}`)
            .send({ ...key, createdAt: key.createdAt.toISOString() });
    });
    app.get('/orgs/:orgId/keys', {
        config: { scope: 'manage' },
        schema: {
            tags: ['keys'],
            summary: "An organization's API keys (never their secrets)",
            params: OrgIdParam,
            response: { 200: KeyListSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return { keys: (await listKeys(em, request.params.orgId)).map(keyView) };
    });
    app.get('/orgs/:orgId/keys/:keyId', {
        config: { scope: 'manage' },
        schema: {
            tags: ['keys'],
            summary: 'One API key (never its secret)',
            params: KeyParams,
            response: { 200: KeySchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return keyView(await getKey(em, request.params.orgId, request.params.keyId));
    });
    app.delete('/orgs/:orgId/keys/:keyId', {
        config: { scope: 'manage' },
        schema: {
            tags: ['keys'],
            summary: 'Revoke an API key; it is refused from then on',
            params: KeyParams,
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        await revokeKey(em, request.params.orgId, request.params.keyId);
        await ctx.revocations.revoked({ kind: 'api-key', keyId: request.params.keyId });
        request.log.info({ keyId: request.params.keyId }, 'api key revoked');
        return reply.status(204).send(null);
    });
};
//# sourceMappingURL=keys.routes.js.map