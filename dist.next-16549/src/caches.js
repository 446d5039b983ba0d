import { EpochSummaryCache } from './features/attestations/epochs.service.js';
import { KnownControls } from './features/attestations/known-controls.js';
import { KeyResolver } from './features/auth/keys.service.js';
import { SessionResolver } from './features/auth/sessions.service.js';
import { KnownOrgs } from './features/orgs/org-scope.js';
import { SidecarKeyCache } from './features/sidecars/sidecar-keys.cache.js';
/** Every cache of what the database holds, empty, for one app over `db`. */
export function createCaches(db, config) {
    return {
        apiKeys: new KeyResolver(db.em, config.adminKey),
        sessions: new SessionResolver(db.em, config.sessions),
        sidecarKeys: new SidecarKeyCache(db),
        knownOrgs: new KnownOrgs(db),
        knownControls: new KnownControls(db),
        epochSummaries: new EpochSummaryCache(),
    };
}
//# sourceMappingURL=caches.js.map