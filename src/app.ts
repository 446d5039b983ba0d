import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createCaches } from './caches.js';
import type { AppContext } from './context.js';
import { agendaRoutes } from './features/agenda/agenda.routes.js';
import { AiSystemDirectory } from './features/ai-systems/ai-systems.directory.js';
import { aiSystemRoutes } from './features/ai-systems/ai-systems.routes.js';
import { applicabilityRoutes } from './features/applicability/applicability.routes.js';
import { attestationRoutes } from './features/attestations/attestations.routes.js';
import { auditTrailRoutes, platformAuditTrailRoutes } from './features/audit-trail/audit-trail.routes.js';
import { auditRoutes } from './features/audits/audits.routes.js';
import { registerAuth } from './features/auth/auth.plugin.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { AuthFailureLimiter } from './features/auth/auth-failures.js';
import { keyRoutes } from './features/auth/keys.routes.js';
import { SignInThrottle } from './features/auth/sign-in.service.js';
import { complianceRoutes } from './features/compliance/compliance.routes.js';
import { consoleRoutes, findConsoleDir } from './features/console/console.routes.js';
import { controlLibraryRoutes, controlRoutes } from './features/controls/controls.routes.js';
import { cteRoutes } from './features/cte/cte.routes.js';
import { documentRoutes } from './features/documents/documents.routes.js';
import { evidenceRoutes, expiringEvidenceRoutes } from './features/evidence/evidence.routes.js';
import { exportRoutes } from './features/exports/export.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import {
  impactAssessmentRoutes,
  impactAssessmentTemplateRoutes,
} from './features/impact-assessments/impact-assessments.routes.js';
import { memberRoutes } from './features/members/members.routes.js';
import { registerDispatchTrigger, webhookRoutes } from './features/notifications/notifications.routes.js';
import { orgScope } from './features/orgs/org-scope.js';
import { orgRoutes, orgSummaryRoutes } from './features/orgs/orgs.routes.js';
import { requirementRoutes } from './features/requirements/requirements.routes.js';
import { reviewRoutes } from './features/reviews/reviews.routes.js';
import { riskRoutes } from './features/risks/risks.routes.js';
import { sidecarKeyRoutes } from './features/sidecars/sidecar-keys.routes.js';
import { jobRegistry } from './job-registry.js';
import { OrgReadCache } from './platform/cache/org-read-cache.js';
import { RevocationBus } from './platform/cache/revocations.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';
import { AppError } from './platform/errors.js';
import { registerErrorHandler, renderFrameworkError } from './platform/http/error-handler.js';
import { lazySchemas } from './platform/http/lazy-schemas.js';
import { registerLingeringClose } from './platform/http/lingering-close.js';
import { registerNulGuard } from './platform/http/nul-guard.js';
import { requestLogger } from './platform/http/request-logger.js';
import { clientErrorHandler, registerClosingGuard } from './platform/http/server-responses.js';
import { registerTextGuard } from './platform/http/text-guard.js';
import type { JobRunner } from './platform/jobs/jobs.js';
import type { Metrics } from './platform/metrics/metrics.js';
import { registerHttpMetrics } from './platform/metrics/metrics.server.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

declare module 'fastify' {
  interface FastifyInstance {
    /** Compiles every route schema not compiled yet (they compile on first use); returns how many. */
    compileSchemas(): number;
  }
}

export const API_PREFIX = '/api/v1';

export interface BuildAppOptions {
  config: Readonly<Config>;
  db: Database;
  jobs: JobRunner;
  /** Shared rate-limit counters across daemon instances. */
  redis?: Redis | null;
  /** The process's logger; tests leave it out and get a quiet one. */
  logger?: FastifyBaseLogger;
  /** Records request, queue, pool and cache metrics into this registry (served on its own port). */
  metrics?: Metrics;
}

/**
 * Bodies are validated strictly (a string is not a boolean); query strings and paths are text by
 * nature, so they are coerced to the declared types.
 */
function buildValidators() {
  const options = { allErrors: false, strict: false, useDefaults: true, removeAdditional: false } as const;
  const body = new Ajv({ ...options, coerceTypes: false });
  const params = new Ajv({ ...options, coerceTypes: 'array' });
  addFormats(body);
  addFormats(params);
  return { body, params };
}

/** Builds the daemon's HTTP app without listening: the server entry listens, tests inject. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db, jobs } = options;
  const schemas = lazySchemas();
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: { level: config.logLevel } }),
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => crypto.randomUUID(),
    childLoggerFactory: requestLogger,
    requestIdHeader: false,
    frameworkErrors: renderFrameworkError,
    clientErrorHandler,
    return503OnClosing: false,
    ajv: { customOptions: {} },
    schemaController: schemas.schemaController,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const validators = buildValidators();
  app.setValidatorCompiler(
    schemas.validatorCompiler((httpPart) => (httpPart === 'body' ? validators.body : validators.params)),
  );
  app.decorate('compileSchemas', () => schemas.compileAll());

  if (options.metrics) {
    registerHttpMetrics(app, options.metrics);
    options.metrics.watch({ db, jobs });
  }
  registerErrorHandler(app);
  // Browsers must take a JSON answer (an error included) for what it says it is, never sniff it as HTML.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  registerClosingGuard(app);
  registerLingeringClose(app);
  registerNulGuard(app);
  registerTextGuard(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'comply API',
        version: '1.0.0',
        description:
          'Compliance management for organizations that run AI systems (Management API under /api/v1) ' +
          'and the Compliance Topology Engine (/api/v1/cte). Every error uses the envelope ' +
          '{"error":{"code","message","details"}}; lists are objects; timestamps are ISO 8601 UTC. No text in a ' +
          'path, query or body may contain NUL (U+0000), except within attestation claims.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'API key (machines: sidecars, CI, agents)' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'comply_session',
            description:
              'A signed-in person (POST /auth/login). Changes made with it must carry the Origin of the daemon itself.',
          },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
  });

  // Built once per app: nothing the database holds is kept by a module.
  const caches = createCaches(db, config);
  // Sets cookies only: the auth hook reads the one cookie it needs itself, on the requests that carry no key.
  await app.register(cookie, { hook: false });
  registerAuth(app, {
    keys: caches.apiKeys,
    sessions: caches.sessions,
    refusals: new AuthFailureLimiter(config.authFailures.max, config.authFailures.windowMs),
    db,
    publicOrigin: config.publicUrl ? new URL(config.publicUrl).origin : null,
  });

  // Public routes (health, the OpenAPI document, the console) are not rate limited: the limiter then adds
  // no hook to them at all, where an allow-list would be asked on every request of every route.
  app.addHook('onRoute', (route) => {
    if (route.config?.public) route.config = { ...route.config, rateLimit: false };
  });
  await app.register(rateLimit, {
    global: true,
    hook: 'preParsing',
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    redis: options.redis ?? undefined,
    // Under the deployment's prefix, as its queues are: deployments sharing a Redis keep their own counters.
    nameSpace: `${config.queuePrefix}:rate:`,
    // Shared counters must not become a single point of failure: if Redis is down, serve.
    skipOnError: true,
    keyGenerator: (request) => request.principal?.actor.id ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `Rate limit of ${context.max} requests per ${context.after} exceeded`,
        { limit: context.max, retryAfterSeconds: Math.ceil(context.ttl / 1000) },
        { 'retry-after': String(Math.ceil(context.ttl / 1000)) },
      ),
  });

  const readCache = new OrgReadCache(options.redis ?? null, config.queuePrefix);
  readCache.start();
  app.addHook('onClose', () => readCache.close());
  const revocations = new RevocationBus(
    options.redis ?? null,
    {
      evict: (revocation) => {
        if (revocation.kind === 'api-key') caches.apiKeys.evict(revocation.keyId);
        else if (revocation.kind === 'user') caches.sessions.evictUser(revocation.userId);
        else caches.sidecarKeys.evict(revocation.orgId, revocation.keyId);
      },
      clear: () => {
        caches.apiKeys.clear();
        caches.sessions.clear();
        caches.sidecarKeys.clear();
      },
    },
    config.queuePrefix,
  );
  revocations.start();
  // Operators' tooling and tests watch revocations arrive (the `revocation` event).
  app.decorate('revocations', revocations);
  app.addHook('onClose', async () => revocations.close());
  const aiSystems = new AiSystemDirectory(db, options.redis ?? null, config.queuePrefix);
  aiSystems.start();
  app.addHook('onClose', async () => aiSystems.close());
  const signIns = new SignInThrottle(config.signInFailures);
  const ctx: AppContext = {
    config,
    db,
    aiSystems,
    jobs,
    jobQueues: jobRegistry.map((job) => job.name),
    caches,
    signIns,
    readCache,
    revocations,
    log: app.log,
  };
  // Writes to an org wake the webhook dispatcher (registered before the routes it watches).
  registerDispatchTrigger(app, ctx);
  await app.register(healthRoutes, { ctx });
  const consoleDir = findConsoleDir();
  if (consoleDir) await app.register(consoleRoutes, { dir: consoleDir });
  else app.log.warn('the web console is not built (npm run build builds it); / is not served');
  await app.register(
    async function apiRoutes(api) {
      await api.register(orgRoutes, { ctx });
      await api.register(authRoutes, { ctx });
      await api.register(platformAuditTrailRoutes, { ctx });
      await api.register(controlLibraryRoutes, { ctx });
      await api.register(impactAssessmentTemplateRoutes, { ctx });
      // Every route that names an org, in one subtree: the org must exist, and a write drops the org's
      // cached reads.
      await api.register(
        orgScope(async (org) => {
          await org.register(orgSummaryRoutes, { ctx });
          await org.register(keyRoutes, { ctx });
          await org.register(memberRoutes, { ctx });
          await org.register(auditTrailRoutes, { ctx });
          await org.register(controlRoutes, { ctx });
          await org.register(requirementRoutes, { ctx });
          await org.register(applicabilityRoutes, { ctx });
          await org.register(evidenceRoutes, { ctx });
          await org.register(expiringEvidenceRoutes, { ctx });
          await org.register(complianceRoutes, { ctx });
          await org.register(aiSystemRoutes, { ctx });
          await org.register(impactAssessmentRoutes, { ctx });
          await org.register(sidecarKeyRoutes, { ctx });
          await org.register(attestationRoutes, { ctx });
          await org.register(riskRoutes, { ctx });
          await org.register(documentRoutes, { ctx });
          await org.register(auditRoutes, { ctx });
          await org.register(reviewRoutes, { ctx });
          await org.register(agendaRoutes, { ctx });
          await org.register(webhookRoutes, { ctx });
          await org.register(exportRoutes, { ctx });
        }),
        { ctx },
      );
      await api.register(cteRoutes, { ctx, prefix: '/cte' });
    },
    { prefix: API_PREFIX },
  );
  return app;
}
