import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type onSendHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { AppContext } from './context.js';
import { AiSystemDirectory } from './features/ai-systems/ai-systems.directory.js';
import { aiSystemRoutes } from './features/ai-systems/ai-systems.routes.js';
import { attestationRoutes } from './features/attestations/attestations.routes.js';
import { registerAuth } from './features/auth/auth.plugin.js';
import { keyRoutes } from './features/auth/keys.routes.js';
import { KeyResolver } from './features/auth/keys.service.js';
import { complianceRoutes } from './features/compliance/compliance.routes.js';
import { consoleRoutes, findConsoleDir } from './features/console/console.routes.js';
import { controlRoutes } from './features/controls/controls.routes.js';
import { cteRoutes } from './features/cte/cte.routes.js';
import { evidenceRoutes, expiringEvidenceRoutes } from './features/evidence/evidence.routes.js';
import { exportRoutes } from './features/exports/export.routes.js';
import { healthRoutes } from './features/health/health.routes.js';
import { orgRoutes } from './features/orgs/orgs.routes.js';
import { requirementRoutes } from './features/requirements/requirements.routes.js';
import { sidecarKeyCache } from './features/sidecars/sidecar-keys.cache.js';
import { sidecarKeyRoutes } from './features/sidecars/sidecar-keys.routes.js';
import { OrgReadCache } from './platform/cache/org-read-cache.js';
import { RevocationBus } from './platform/cache/revocations.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';
import { AppError } from './platform/errors.js';
import { registerErrorHandler, renderFrameworkError } from './platform/http/error-handler.js';
import { registerLingeringClose } from './platform/http/lingering-close.js';
import { registerNulGuard } from './platform/http/nul-guard.js';
import { requestLogger } from './platform/http/request-logger.js';
import { clientErrorHandler, registerClosingGuard } from './platform/http/server-responses.js';
import { registerTextGuard } from './platform/http/text-guard.js';
import type { JobRunner } from './platform/jobs/jobs.js';
import type { Metrics } from './platform/metrics/metrics.js';
import { registerHttpMetrics } from './platform/metrics/metrics.server.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

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
  }).withTypeProvider<TypeBoxTypeProvider>();

  const validators = buildValidators();
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? validators.body : validators.params).compile(schema),
  );

  if (options.metrics) {
    registerHttpMetrics(app, options.metrics);
    options.metrics.watch({ db, jobs });
  }
  registerErrorHandler(app);
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
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API key' } },
      },
      security: [{ bearer: [] }],
    },
  });

  const keys = new KeyResolver(db.em, config.adminKey);
  registerAuth(app, keys);

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
    nameSpace: 'comply:rate:',
    // Shared counters must not become a single point of failure: if Redis is down, serve.
    skipOnError: true,
    keyGenerator: (request) => request.principal?.keyId ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `Rate limit of ${context.max} requests per ${context.after} exceeded`,
        { limit: context.max, retryAfterSeconds: Math.ceil(context.ttl / 1000) },
        { 'retry-after': String(Math.ceil(context.ttl / 1000)) },
      ),
  });

  const readCache = new OrgReadCache(options.redis ?? null);
  readCache.start();
  app.addHook('onClose', () => readCache.close());
  // Every write to an org goes through a route under /orgs/{orgId}; by the time its response is being
  // sent the write has committed, so this one hook, on those routes only, keeps every cached read of the
  // org exact.
  const invalidateOrg: onSendHookHandler = (request, _reply, payload, done) => {
    const orgId = (request.params as { orgId?: string } | undefined)?.orgId;
    if (orgId !== undefined && request.method !== 'GET' && request.method !== 'HEAD')
      readCache.invalidate(orgId);
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    const reads = [route.method].flat().every((method) => method === 'GET' || method === 'HEAD');
    if (reads || !route.url.includes(':orgId')) return;
    route.onSend = [...[route.onSend ?? []].flat(), invalidateOrg];
  });
  const sidecarKeys = sidecarKeyCache(db);
  const revocations = new RevocationBus(options.redis ?? null, {
    evict: (revocation) =>
      revocation.kind === 'api-key'
        ? keys.evict(revocation.keyId)
        : sidecarKeys.evict(revocation.orgId, revocation.keyId),
    clear: () => {
      keys.clear();
      sidecarKeys.clear();
    },
  });
  revocations.start();
  // Operators' tooling and tests watch revocations arrive (the `revocation` event).
  app.decorate('revocations', revocations);
  app.addHook('onClose', async () => revocations.close());
  const aiSystems = new AiSystemDirectory(db, options.redis ?? null);
  aiSystems.start();
  app.addHook('onClose', async () => aiSystems.close());
  const ctx: AppContext = { config, db, aiSystems, jobs, keys, readCache, revocations, log: app.log };
  await app.register(healthRoutes, { ctx });
  const consoleDir = findConsoleDir();
  if (consoleDir) await app.register(consoleRoutes, { dir: consoleDir });
  else app.log.warn('the web console is not built (npm run build builds it); / is not served');
  await app.register(
    async (api) => {
      await api.register(orgRoutes, { ctx });
      await api.register(keyRoutes, { ctx });
      await api.register(controlRoutes, { ctx });
      await api.register(requirementRoutes, { ctx });
      await api.register(evidenceRoutes, { ctx });
      await api.register(expiringEvidenceRoutes, { ctx });
      await api.register(complianceRoutes, { ctx });
      await api.register(aiSystemRoutes, { ctx });
      await api.register(sidecarKeyRoutes, { ctx });
      await api.register(attestationRoutes, { ctx });
      await api.register(exportRoutes, { ctx });
      await api.register(cteRoutes, { ctx, prefix: '/cte' });
    },
    { prefix: API_PREFIX },
  );
  return app;
}
