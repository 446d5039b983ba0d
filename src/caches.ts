import type { Caches } from './context.js';
import { EpochSummaryCache } from './features/attestations/epochs.service.js';
import { KnownControls } from './features/attestations/known-controls.js';
import { KeyResolver } from './features/auth/keys.service.js';
import { SessionResolver } from './features/auth/sessions.service.js';
import { KnownOrgs } from './features/orgs/org-scope.js';
import { SidecarKeyCache } from './features/sidecars/sidecar-keys.cache.js';
import type { Config } from './platform/config.js';
import type { Database } from './platform/db/database.js';

/** Every cache of what the database holds, empty, for one app over `db`. */
export function createCaches(db: Database, config: Pick<Config, 'adminKey' | 'sessions'>): Caches {
  return {
    apiKeys: new KeyResolver(db.em, config.adminKey),
    sessions: new SessionResolver(db.em, config.sessions),
    sidecarKeys: new SidecarKeyCache(db),
    knownOrgs: new KnownOrgs(db),
    knownControls: new KnownControls(db),
    epochSummaries: new EpochSummaryCache(),
  };
}
