import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { AiSystemDirectory } from './features/ai-systems/ai-systems.directory.js';
import type { EpochSummaryCache } from './features/attestations/epochs.service.js';
import type { KnownControls } from './features/attestations/known-controls.js';
import type { KeyResolver } from './features/auth/keys.service.js';
import type { SessionResolver } from './features/auth/sessions.service.js';
import type { SignInThrottle } from './features/auth/sign-in.service.js';
import type { KnownOrgs } from './features/orgs/org-scope.js';
import type { SidecarKeyCache } from './features/sidecars/sidecar-keys.cache.js';
import type { OrgReadCache } from './platform/cache/org-read-cache.js';
import type { RevocationBus } from './platform/cache/revocations.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';
import type { JobRunner } from './platform/jobs/jobs.js';

/**
 * What the process derives from its database and keeps between requests: built once per app by `buildApp`
 * (src/caches.ts), never held by a module, so that two apps in one process (the tests) share nothing.
 */
export interface Caches {
  /** API keys by secret (10 s; revocations evict at once). */
  apiKeys: KeyResolver;
  /** Session cookies by token (10 s; sign-outs and member changes evict at once). */
  sessions: SessionResolver;
  /** Sidecar public keys by org and key id (10 s; revocations evict at once). */
  sidecarKeys: SidecarKeyCache;
  /** Orgs known to exist (orgs are never deleted). */
  knownOrgs: KnownOrgs;
  /** The control library's ids (it only grows). */
  knownControls: KnownControls;
  /** Epoch summaries, checked against the epoch's count token on each read. */
  epochSummaries: EpochSummaryCache;
}

/** What feature routes may use: passed explicitly to each feature's route plugin. */
export interface AppContext {
  config: Readonly<Config>;
  db: Database;
  /** Resolves the AI system an attestation names; the AI-system routes tell it what they changed. */
  aiSystems: AiSystemDirectory;
  jobs: JobRunner;
  /** The queue of every registered job (src/job-registry.ts): with BullMQ, readiness asks that a worker serves each. */
  jobQueues: readonly string[];
  caches: Caches;
  /** Failed sign-ins per email: slowed, then refused. */
  signIns: SignInThrottle;
  /** Serialized hot reads per org; writers invalidate the org after their commit. */
  readCache: OrgReadCache;
  /** Call after a key revocation commits: evicts it here and on every other daemon instance. */
  revocations: RevocationBus;
  log: FastifyBaseLogger;
}

/** A feature's route plugin: it gets the app context and registers its routes. */
export type FeatureRoutes = FastifyPluginAsyncTypebox<{ ctx: AppContext }>;
