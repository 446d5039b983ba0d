import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { AppContext, FeatureRoutes } from '../../context.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { dispatchEvents } from './dispatch.service.js';
import { deliveryJobFor } from './notifications.jobs.js';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliveryLogQuery,
  DeliveryLogSchema,
  WebhookListSchema,
  WebhookParams,
  WebhookSchema,
} from './notifications.schemas.js';
import { createWebhook, deliveryLog, getWebhook, listWebhooks, removeWebhook } from './webhooks.service.js';
import { orgHasWebhooks } from './webhooks.store.js';

const TAG = 'webhooks';
const MANAGE = { scope: 'manage' as const };

/** An org's webhooks and their delivery logs (under the org scope): owners and platform administrators. */
export const webhookRoutes: FeatureRoutes = async function webhookRoutes(app, { ctx }) {
  const location = (orgId: string, webhookId: string) =>
    `/api/v1/orgs/${encodeURIComponent(orgId)}/webhooks/${encodeURIComponent(webhookId)}`;

  app.post(
    '/orgs/:orgId/webhooks',
    {
      config: MANAGE,
      schema: {
        tags: [TAG],
        summary: 'Add a webhook: the events it receives, signed per the Standard Webhooks scheme',
        description:
          'Each delivery is a POST of `{type, timestamp, data}` (data: orgId, seq, resource, actor, changes) with ' +
          'the headers `webhook-id` (the audit event id, the same on every retry), `webhook-timestamp` and ' +
          '`webhook-signature` (`v1,<base64 HMAC-SHA256>`). Delivered at least once: a 2xx answer ends it, ' +
          'anything else is retried with exponential backoff for about a day, each attempt logged. The secret ' +
          'is returned only here. A URL whose host resolves to a loopback, private, link-local or other ' +
          'internal address is refused with `400` unless the daemon allows it (COMPLY_WEBHOOK_ALLOW_PRIVATE).',
        params: OrgIdParam,
        body: CreateWebhookBody,
        response: { 201: CreatedWebhookSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const webhook = await createWebhook(ctx.db.em(), orgId, request.body, {
        allowPrivate: ctx.config.webhooks.allowPrivate,
        createdBy: principalOf(request).actor.id,
      });
      request.log.info({ webhookId: webhook.webhookId, events: webhook.events }, 'webhook added');
      return reply.status(201).header('location', location(orgId, webhook.webhookId)).send(webhook);
    },
  );

  app.get(
    '/orgs/:orgId/webhooks',
    {
      config: MANAGE,
      schema: {
        tags: [TAG],
        summary: 'The org’s webhooks (never their secrets)',
        params: OrgIdParam,
        response: { 200: WebhookListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      webhooks: await listWebhooks(ctx.db.em(), request.params.orgId),
    }),
  );

  app.get(
    '/orgs/:orgId/webhooks/:webhookId',
    {
      config: MANAGE,
      schema: {
        tags: [TAG],
        summary: 'One webhook (never its secret)',
        params: WebhookParams,
        response: { 200: WebhookSchema, ...errorResponses },
      },
    },
    async (request) => getWebhook(ctx.db.em(), request.params.orgId, request.params.webhookId),
  );

  app.delete(
    '/orgs/:orgId/webhooks/:webhookId',
    {
      config: MANAGE,
      schema: {
        tags: [TAG],
        summary: 'Remove a webhook: nothing more is sent to it, its pending deliveries and log go with it',
        params: WebhookParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeWebhook(ctx.db.em(), request.params.orgId, request.params.webhookId);
      request.log.info({ webhookId: request.params.webhookId }, 'webhook removed');
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/orgs/:orgId/webhooks/:webhookId/deliveries',
    {
      config: MANAGE,
      schema: {
        tags: [TAG],
        summary: 'The webhook’s delivery log: every attempt, newest first',
        params: WebhookParams,
        querystring: DeliveryLogQuery,
        response: { 200: DeliveryLogSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { limit = 50, offset = 0 } = request.query;
      return deliveryLog(ctx.db.em(), request.params.orgId, request.params.webhookId, { limit, offset });
    },
  );
};

/** How long this daemon trusts that an org has (or has no) webhooks. */
const HAS_WEBHOOKS_TTL_MS = 5000;

/**
 * Wakes the dispatcher after a write to an org that has webhooks, so that a change reaches receivers within
 * moments instead of at the next scheduled dispatch. The daemon hands the org's new events over itself (a
 * few queries; the deliveries still go through the job queue, to workers when there are some): a queue hop
 * to a worker would only add latency. Cheap on the request path: a write whose org has no webhook (known for
 * a few seconds) costs a map lookup, and writes to an org while its dispatch runs coalesce into one more.
 */
export class DispatchTrigger {
  private readonly hasWebhooks = new TtlCache<string, boolean>(HAS_WEBHOOKS_TTL_MS, 10_000);
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private closed = false;

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'jobs' | 'log' | 'config'>) {}

  /** A webhook of the org was added or removed here: ask again. */
  forget(orgId: string): void {
    this.hasWebhooks.delete(orgId);
  }

  written(orgId: string): void {
    if (this.closed) return;
    const known = this.hasWebhooks.get(orgId);
    if (known === true) this.wake(orgId);
    else if (known === undefined) {
      orgHasWebhooks(this.ctx.db.em(), orgId).then(
        (has) => {
          this.hasWebhooks.set(orgId, has);
          if (has) this.wake(orgId);
        },
        (error) => this.ctx.log.warn({ err: error, orgId }, 'could not look up the org’s webhooks'),
      );
    }
  }

  private wake(orgId: string): void {
    if (this.closed) return;
    if (this.running.has(orgId)) {
      this.again.add(orgId);
      return;
    }
    this.running.add(orgId);
    void this.dispatch(orgId);
  }

  private async dispatch(orgId: string): Promise<void> {
    try {
      do {
        this.again.delete(orgId);
        await dispatchEvents(this.ctx.db.em(), this.ctx.jobs, deliveryJobFor(this.ctx.config), orgId);
      } while (this.again.has(orgId) && !this.closed);
    } catch (error) {
      this.ctx.log.warn({ err: error, orgId }, 'could not dispatch webhooks; the schedule will');
    } finally {
      this.running.delete(orgId);
      this.again.delete(orgId);
    }
  }

  close(): void {
    this.closed = true;
  }
}

/**
 * Attaches the trigger to every successful write under `/orgs/:orgId` (call before the routes are registered).
 */
export function registerDispatchTrigger(app: FastifyInstance, ctx: AppContext): DispatchTrigger {
  const trigger = new DispatchTrigger(ctx);
  const afterWrite =
    (webhooksChanged: boolean): onResponseHookHandler =>
    (request, reply, done) => {
      const { orgId } = request.params as { orgId?: string };
      if (orgId && reply.statusCode < 400) {
        if (webhooksChanged) trigger.forget(orgId);
        trigger.written(orgId);
      }
      done();
    };
  app.addHook('onRoute', (route) => {
    const writes = [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD');
    // A route outside the audit trail (attestations) appends no event a webhook could be told of.
    if (writes && route.url.includes('/orgs/:orgId') && !route.config?.outsideAuditTrail) {
      const hook = afterWrite(route.url.includes('/orgs/:orgId/webhooks'));
      route.onResponse = [...[route.onResponse ?? []].flat(), hook];
    }
  });
  app.addHook('onClose', async () => trigger.close());
  return trigger;
}
