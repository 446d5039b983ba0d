import { controlLibrary } from '../controls/library.seed.js';
import { resourceNotFound } from '../errors.js';
import { requireOrg } from '../orgs/orgs.service.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas.js';
import { ISO_42001 } from '../vocabulary.js';
import { CreateEvidenceBody, EvidenceItemParams, EvidenceListQuery, EvidenceListSchema, EvidenceParams, EvidenceSchema, } from './evidence.schemas.js';
import { addEvidence, getEvidence, listEvidence } from './evidence.service.js';
/** The evidence routes of one family (ISO/IEC 42001 controls, or requirements of any framework). */
export function evidenceRoutesFor(family) {
    return async (app, { ctx }) => {
        const keyOf = async (request) => {
            const em = ctx.db.em();
            const params = request.params;
            await requireOrg(em, params.orgId);
            return { em, key: await family.keyOf(em, params) };
        };
        app.post(family.path, {
            config: { scope: 'write' },
            schema: {
                tags: [family.tag],
                summary: 'Attach evidence (attestation, document or link)',
                description: '`fileUrl` must be an absolute http(s) URL and is required for `document` and `link`. ' +
                    'Optional `effectiveDate` and `expiresAt` bound when the evidence counts; expired evidence is ' +
                    'flagged in lists, and a record whose evidence has all expired is flagged where it is listed.',
                params: family.params,
                body: CreateEvidenceBody,
                response: { 201: family.item, ...errorResponses },
            },
        }, async (request, reply) => {
            const { em, key } = await keyOf(request);
            const evidence = await addEvidence(em, {
                ...key,
                evidence: request.body,
                createdBy: principalOf(request).keyId,
            });
            return reply
                .status(201)
                .header('location', `${family.location(key)}/${evidence.evidenceId}`)
                .send({ ...evidence, ...family.decorate(key) });
        });
        app.get(family.path, {
            schema: {
                tags: [family.tag],
                summary: 'A page of evidence, newest first',
                params: family.params,
                querystring: EvidenceListQuery,
                response: { 200: family.list, ...errorResponses },
            },
        }, async (request) => {
            const { em, key } = await keyOf(request);
            const page = await listEvidence(em, key, request.query);
            const extra = family.decorate(key);
            return {
                orgId: key.orgId,
                controlId: key.requirementId,
                ...extra,
                ...page,
                evidence: page.evidence.map((item) => ({ ...item, ...extra })),
            };
        });
        app.get(`${family.path}/:evidenceId`, {
            schema: {
                tags: [family.tag],
                summary: 'One evidence item',
                params: family.itemParams,
                response: { 200: family.item, ...errorResponses },
            },
        }, async (request) => {
            const { em, key } = await keyOf(request);
            const evidence = await getEvidence(em, key, request.params.evidenceId);
            return { ...evidence, ...family.decorate(key) };
        });
    };
}
/** Evidence of ISO/IEC 42001 controls, under `/orgs/{orgId}/controls/{controlId}/evidence`. */
export const evidenceRoutes = evidenceRoutesFor({
    path: '/orgs/:orgId/controls/:controlId/evidence',
    tag: 'evidence',
    params: EvidenceParams,
    itemParams: EvidenceItemParams,
    item: EvidenceSchema,
    list: EvidenceListSchema,
    keyOf: async (_em, { orgId, controlId }) => {
        if (!controlLibrary().controls.some((control) => control.controlId === controlId)) {
            throw resourceNotFound('Control', { controlId });
        }
        return { orgId, frameworkId: ISO_42001, requirementId: controlId };
    },
    decorate: () => ({}),
    location: ({ orgId, requirementId }) => `/api/v1/orgs/${encodeURIComponent(orgId)}/controls/${encodeURIComponent(requirementId)}/evidence`,
});
//# sourceMappingURL=evidence.routes.js.map