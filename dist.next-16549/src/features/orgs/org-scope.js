import { LruCache } from '../../platform/cache/lru-cache.js';
import { lookUpOrg } from './orgs.service.js';
/** Org ids remembered as existing: about 100 bytes each, so the bound is a few MB. */
const MAX_KNOWN_ORGS = 50_000;
/**
 * Orgs known to exist. Orgs are never deleted, so an id once seen stays valid: this spares a query on every
 * org-scoped request.
 */
export class KnownOrgs {
    db;
    ids = new LruCache(MAX_KNOWN_ORGS);
    constructor(db) {
        this.db = db;
    }
    /** Done when the org exists, else a 404; an org seen once answers at once, without a query or a promise. */
    require(orgId) {
        if (this.ids.get(orgId))
            return undefined;
        return lookUpOrg(this.db.em(), orgId).then(() => this.ids.set(orgId, true));
    }
}
const ORG_PATH = '/orgs/:orgId';
/**
 * The subtree of every route under `/orgs/:orgId`, in one encapsulated context that carries its two rules:
 *
 * - the org must exist (404 otherwise), checked once the request is authenticated, authorised for the org
 *   and validated, before its handler runs;
 * - a write to the org, by the time its response is being sent, has committed: the org's cached reads are
 *   dropped then (here and, through the read cache, on every other instance), so they stay exact.
 *
 * A route outside `/orgs/:orgId` registered here is a mistake: it would be checked against an org it does
 * not name, so registering one fails at start.
 */
export function orgScope(register) {
    return async function orgScopedRoutes(app, { ctx }) {
        const requireOrg = (request, _reply, done) => {
            const known = ctx.caches.knownOrgs.require(request.params.orgId);
            if (!(known instanceof Promise))
                return done();
            known.then(() => done(), done);
        };
        const invalidateOrg = (request, _reply, payload, done) => {
            ctx.readCache.invalidate(request.params.orgId);
            done(null, payload);
        };
        app.addHook('preHandler', requireOrg);
        // Attached route by route, so that reads do not even call it.
        app.addHook('onRoute', (route) => {
            if (!route.url.includes(ORG_PATH)) {
                throw new Error(`${route.method} ${route.url} is registered in the org scope but names no org`);
            }
            const reads = [route.method].flat().every((method) => method === 'GET' || method === 'HEAD');
            if (!reads)
                route.onSend = [...[route.onSend ?? []].flat(), invalidateOrg];
        });
        await register(app);
    };
}
//# sourceMappingURL=org-scope.js.map