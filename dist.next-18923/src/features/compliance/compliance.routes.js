import { sendSerialized } from '../../platform/cache/org-read-cache.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { principalOf } from '../auth/auth.plugin.js';
import { ScoreHistory } from '../scores/history.service.js';
import { HistoryQuery, HistorySchema } from '../scores/scores.schemas.js';
import { ComplianceSchema, SnapshotBody, SnapshotListQuery, SnapshotListSchema, SnapshotParams, SnapshotSchema, SnapshotVerificationSchema, } from './compliance.schemas.js';
import { currentCompliance } from './compliance.service.js';
import { createSnapshot, getSnapshot, listSnapshots, verifySnapshot } from './snapshots.service.js';
export const complianceRoutes = async function complianceRoutes(app, { ctx }) {
    const scoreHistory = new ScoreHistory(ctx.jobs, ctx.log);
    app.get('/orgs/:orgId/compliance', {
        schema: {
            tags: ['compliance'],
            summary: 'Current compliance score, with counts and a per-domain breakdown',
            params: OrgIdParam,
            response: { 200: ComplianceSchema, ...errorResponses },
        },
    }, (request, reply) => {
        const em = ctx.db.em();
        const { orgId } = request.params;
        const body = ctx.readCache.get(orgId, 'compliance', async () => ({ value: await currentCompliance(em, orgId) }), (value) => reply.serialize(value));
        return sendSerialized(reply, body);
    });
    app.get('/orgs/:orgId/compliance/history', {
        schema: {
            tags: ['compliance'],
            summary: 'The score at the end of each day, ISO week or month, rebuilt exactly from the change log',
            description: 'Defaults: `interval=daily`, `from` 29 days before today, `to` now (30 daily points). Periods are ' +
                'UTC; weeks run Monday to Sunday. At most 1100 points per request.',
            params: OrgIdParam,
            querystring: HistoryQuery,
            response: { 200: HistorySchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return scoreHistory.read(em, request.params.orgId, ISO_42001, request.query);
    });
    app.post('/orgs/:orgId/compliance/snapshot', {
        config: { scope: 'write' },
        schema: {
            tags: ['compliance'],
            summary: 'Freeze the current state under a label for auditors (immutable, content-hashed)',
            description: 'Holds every control and every evidence reference. `contentHash` is the SHA-256 of the RFC 8785 ' +
                'canonical JSON of the snapshot without `contentHash`. A label already used in the org → 409.',
            params: OrgIdParam,
            body: SnapshotBody,
            response: { 201: SnapshotSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const { orgId } = request.params;
        const snapshot = await createSnapshot(em, {
            orgId,
            label: request.body.label,
            notes: request.body.notes,
            createdBy: principalOf(request).actor.id,
        });
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(orgId)}/compliance/snapshots/${snapshot.snapshotId}`)
            .send(snapshot);
    });
    app.get('/orgs/:orgId/compliance/snapshots', {
        schema: {
            tags: ['compliance'],
            summary: 'Snapshots of an org, newest first (summaries without the controls)',
            params: OrgIdParam,
            querystring: SnapshotListQuery,
            response: { 200: SnapshotListSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return {
            orgId: request.params.orgId,
            ...(await listSnapshots(em, request.params.orgId, request.query)),
        };
    });
    app.get('/orgs/:orgId/compliance/snapshots/:snapshotId', {
        schema: {
            tags: ['compliance'],
            summary: 'One snapshot, in full',
            params: SnapshotParams,
            response: { 200: SnapshotSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return getSnapshot(em, request.params.orgId, request.params.snapshotId);
    });
    app.get('/orgs/:orgId/compliance/snapshots/:snapshotId/verify', {
        schema: {
            tags: ['compliance'],
            summary: 'Recompute the content hash of a stored snapshot and compare it with the recorded one',
            params: SnapshotParams,
            response: { 200: SnapshotVerificationSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return verifySnapshot(em, request.params.orgId, request.params.snapshotId);
    });
};
//# sourceMappingURL=compliance.routes.js.map