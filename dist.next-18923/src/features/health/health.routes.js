import { Type } from 'typebox';
import { pingDatabase } from '../../platform/db/database.js';
import { ErrorEnvelopeSchema } from '../../shared/schemas.js';
const HealthSchema = Type.Object({
    status: Type.String(),
    database: Type.Optional(Type.String()),
    queue: Type.Optional(Type.String()),
});
export const healthRoutes = async function healthRoutes(app, { ctx }) {
    app.get('/healthz', {
        config: { public: true },
        schema: { tags: ['health'], summary: 'Liveness', security: [], response: { 200: HealthSchema } },
    }, async () => ({ status: 'ok' }));
    app.get('/readyz', {
        config: { public: true },
        schema: {
            tags: ['health'],
            summary: 'Readiness: database reachable, and the queue when Redis is configured',
            security: [],
            // The envelope while the server is closing; the dependencies' state otherwise.
            response: { 200: HealthSchema, 503: Type.Union([HealthSchema, ErrorEnvelopeSchema]) },
        },
    }, async (_request, reply) => {
        const database = (await pingDatabase(ctx.db)) ? 'ok' : 'unreachable';
        const queue = (await ctx.jobs.ready().catch(() => false)) ? ctx.jobs.kind : 'unreachable';
        const ready = database === 'ok' && queue !== 'unreachable';
        return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', database, queue });
    });
    app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
};
//# sourceMappingURL=health.routes.js.map