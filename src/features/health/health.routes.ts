import { Type } from 'typebox';
import type { FeatureRoutes } from '../../context.js';
import { pingDatabase } from '../../platform/db/database.js';
import { queuesText, START_WORKER_HINT } from '../../platform/jobs/bullmq.runner.js';
import { ErrorEnvelopeSchema } from '../../shared/schemas.js';

const HealthSchema = Type.Object({
  status: Type.String(),
  database: Type.Optional(Type.String()),
  queue: Type.Optional(Type.String()),
  workers: Type.Optional(
    Type.String({
      description: 'With BullMQ: `running` when a worker serves every queue, else `missing`',
    }),
  ),
  unservedQueues: Type.Optional(
    Type.Array(Type.String(), { description: 'The queues no worker serves (with `workers: missing`)' }),
  ),
  reason: Type.Optional(Type.String({ description: 'Why the daemon is not ready, and what to do' })),
});

export const healthRoutes: FeatureRoutes = async function healthRoutes(app, { ctx }) {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: { tags: ['health'], summary: 'Liveness', security: [], response: { 200: HealthSchema } },
    },
    async () => ({ status: 'ok' }),
  );

  /** With BullMQ and the queue reachable, the queues no worker serves; null when that cannot be told. */
  async function unservedQueues(): Promise<string[] | null> {
    if (!ctx.jobs.unserved) return null;
    return ctx.jobs.unserved(ctx.jobQueues).catch(() => null);
  }

  app.get(
    '/readyz',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary:
          'Readiness: database reachable, and with Redis the queue reachable and a job worker serving each queue',
        security: [],
        // The envelope while the server is closing; the dependencies' state otherwise.
        response: { 200: HealthSchema, 503: Type.Union([HealthSchema, ErrorEnvelopeSchema]) },
      },
    },
    async (_request, reply) => {
      const database = (await pingDatabase(ctx.db)) ? 'ok' : 'unreachable';
      const queue = (await ctx.jobs.ready().catch(() => false)) ? ctx.jobs.kind : 'unreachable';
      const unserved = queue === 'bullmq' ? await unservedQueues() : null;
      const workers = unserved === null ? {} : { workers: unserved.length === 0 ? 'running' : 'missing' };
      const ready = database === 'ok' && queue !== 'unreachable' && !unserved?.length;
      const body = { status: ready ? 'ready' : 'not ready', database, queue, ...workers };
      if (!unserved?.length) return reply.status(ready ? 200 : 503).send(body);
      return reply.status(503).send({
        ...body,
        unservedQueues: unserved,
        reason: `no job worker is running for ${queuesText(unserved)}: ${START_WORKER_HINT}`,
      });
    },
  );

  app.get('/api/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
};
