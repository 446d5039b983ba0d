import { sendSerialized } from '../../platform/cache/org-read-cache.js';
import { resourceNotFound } from '../../platform/errors.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { principalOf } from '../auth/auth.plugin.js';
import { controlLibrary } from '../controls/library.seed.js';
import { CreateEvidenceBody, EvidenceItemParams, EvidenceListQuery, EvidenceListSchema, EvidenceParams, EvidenceSchema, ExpiringEvidenceListSchema, ExpiringEvidenceQuery, } from './evidence.schemas.js';
import { addEvidence, getEvidence, listEvidence, listExpiringEvidence } from './evidence.service.js';
/** The evidence routes of one family (ISO/IEC 42001 controls, or requirements of any framework). */
export function evidenceRoutesFor(family) {
    return async function evidenceRoutes(app, { ctx }) {
        const keyOf = async (request) => {
            const em = ctx.db.em();
            const params = request.params;
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
                createdBy: principalOf(request).actor.id,
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
        }, async (request, reply) => {
            const { em, key } = await keyOf(request);
            const query = request.query;
            const build = async () => {
                const now = new Date();
                const page = await listEvidence(em, key, query, now);
                const extra = family.decorate(key);
                return {
                    value: {
                        orgId: key.orgId,
                        controlId: key.requirementId,
                        ...extra,
                        ...page,
                        evidence: page.evidence.map((item) => ({ ...item, ...extra })),
                    },
                    // The page changes by itself only when one of its items expires.
                    validUntil: nextExpiryOf(page.evidence, now),
                };
            };
            // First pages are what clients read over and over; deeper pages are read through.
            if ((query.offset ?? 0) !== 0)
                return (await build()).value;
            const body = await ctx.readCache.get(key.orgId, 
            // The family's path is part of the key: each family decorates its pages its own way.
            `${family.path}:${key.frameworkId}/${key.requirementId}?${query.type ?? ''}&${query.limit ?? ''}`, build, (value) => reply.serialize(value));
            return sendSerialized(reply, body);
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
/** The first instant after `now` at which an item of the page turns expired, or Infinity. */
function nextExpiryOf(items, now) {
    let next = Number.POSITIVE_INFINITY;
    for (const { expiresAt } of items) {
        if (expiresAt === null)
            continue;
        const at = new Date(expiresAt).getTime();
        if (at > now.getTime() && at < next)
            next = at;
    }
    return next;
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
/** The org's evidence by expiry, across every framework: what to renew next. */
export const expiringEvidenceRoutes = async function expiringEvidenceRoutes(app, { ctx }) {
    app.get('/orgs/:orgId/evidence/expiring', {
        schema: {
            tags: ['evidence'],
            summary: 'Evidence whose expiry falls in [from, to) (default: the next 30 days), soonest first, paged',
            params: OrgIdParam,
            querystring: ExpiringEvidenceQuery,
            response: { 200: ExpiringEvidenceListSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return {
            orgId: request.params.orgId,
            ...(await listExpiringEvidence(em, request.params.orgId, request.query)),
        };
    });
};
//# sourceMappingURL=evidence.routes.js.map