import { sendSerialized } from '../../platform/cache/org-read-cache.js';
import { whenReady } from '../../platform/ready.js';
import { analysisOf } from './analysis.service.js';
import { heldRevision } from './library.service.js';
/**
 * An org's report, serialized once and kept in the org read cache until a write to the org, another library
 * revision (an import or an analyst edge: part of the key) or the next evidence expiry that changes the
 * org's state, whichever comes first.
 */
export function sendReport(ctx, reply, orgId, name, build) {
    return sendRecordReport(ctx, reply, orgId, name, async (analysis) => ({ value: build(analysis) }));
}
/**
 * As `sendReport`, for a report that also reads the org's records: it lasts until the earlier of the org
 * state's next expiry and the `validUntil` its builder returns. When the revision and the report are held it
 * answers at once, without a promise.
 */
export function sendRecordReport(ctx, reply, orgId, name, build) {
    const em = ctx.db.em();
    const body = whenReady(heldRevision(ctx, em), (revision) => ctx.readCache.get(orgId, `cte/${name}@${revision}`, async () => {
        const analysis = await analysisOf(em, orgId);
        const { value, validUntil = Number.POSITIVE_INFINITY } = await build(analysis);
        return { value, validUntil: Math.min(validUntil, analysis.state.validUntil) };
    }, (value) => reply.serialize(value)));
    return sendSerialized(reply, body);
}
//# sourceMappingURL=report-cache.js.map