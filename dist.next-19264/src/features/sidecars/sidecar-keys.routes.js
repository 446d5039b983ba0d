import { Type } from 'typebox';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { RegisterSidecarKeyBody, SidecarKeyListSchema, SidecarKeyParams, SidecarKeySchema, } from './sidecar-keys.schemas.js';
import { getSidecarKey, listSidecarKeys, registerSidecarKey, revokeSidecarKey, } from './sidecar-keys.service.js';
export const sidecarKeyRoutes = async function sidecarKeyRoutes(app, { ctx }) {
    app.post('/orgs/:orgId/sidecar-keys', {
        config: { scope: 'admin' },
        schema: {
            tags: ['attestations'],
            summary: 'Register a sidecar public key (Ed25519) that may sign L2 attestations for the org',
            params: OrgIdParam,
            body: RegisterSidecarKeyBody,
            response: { 201: SidecarKeySchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const key = await registerSidecarKey(em, request.params.orgId, request.body);
        request.log.info({ sidecarKeyId: key.keyId, fingerprint: key.fingerprint }, 'sidecar key registered');
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(request.params.orgId)}/sidecar-keys/${encodeURIComponent(key.keyId)}`)
            .send(key);
    });
    app.get('/orgs/:orgId/sidecar-keys', {
        config: { scope: 'admin' },
        schema: {
            tags: ['attestations'],
            summary: "An organization's sidecar keys, revoked ones included",
            params: OrgIdParam,
            response: { 200: SidecarKeyListSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return { sidecarKeys: await listSidecarKeys(em, request.params.orgId) };
    });
    app.get('/orgs/:orgId/sidecar-keys/:keyId', {
        config: { scope: 'admin' },
        schema: {
            tags: ['attestations'],
            summary: 'One sidecar key, with its revocation time if revoked',
            params: SidecarKeyParams,
            response: { 200: SidecarKeySchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        const { orgId, keyId } = request.params;
        return getSidecarKey(em, orgId, keyId);
    });
    app.delete('/orgs/:orgId/sidecar-keys/:keyId', {
        config: { scope: 'admin' },
        schema: {
            tags: ['attestations'],
            summary: 'Revoke a sidecar key: L2 attestations it signs are refused from then on',
            params: SidecarKeyParams,
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const { orgId, keyId } = request.params;
        await revokeSidecarKey(em, orgId, keyId);
        await ctx.revocations.revoked({ kind: 'sidecar-key', orgId, keyId });
        request.log.info({ sidecarKeyId: keyId }, 'sidecar key revoked');
        return reply.status(204).send(null);
    });
};
//# sourceMappingURL=sidecar-keys.routes.js.map