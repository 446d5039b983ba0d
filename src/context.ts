import type { FastifyBaseLogger } from 'fastify';
import type { AiSystemDirectory } from './features/ai-systems/ai-systems.directory.js';
import type { KeyResolver } from './features/auth/keys.service.js';
import type { OrgReadCache } from './platform/cache/org-read-cache.js';
import type { RevocationBus } from './platform/cache/revocations.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';
import type { JobRunner } from './platform/jobs/jobs.js';

/** What feature routes may use: passed explicitly to each feature's route plugin. */
export interface AppContext {
  config: Readonly<Config>;
  db: Database;
  /** Resolves the AI system an attestation names; the AI-system routes tell it what they changed. */
  aiSystems: AiSystemDirectory;
  jobs: JobRunner;
  keys: KeyResolver;
  /** Serialized hot reads per org; writers invalidate the org after their commit. */
  readCache: OrgReadCache;
  /** Call after a key revocation commits: evicts it here and on every other daemon instance. */
  revocations: RevocationBus;
  log: FastifyBaseLogger;
}
