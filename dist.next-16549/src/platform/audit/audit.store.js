import { toIso } from '../db/instant.js';
/** The platform's chain: sign-ins, people, and what every org shares (imported frameworks, analyst edges). */
export const PLATFORM_CHAIN = '';
const COLUMNS = `event_id as "eventId", seq, at, actor, action, resource_type as "resourceType",
  resource_id as "resourceId", changes, request_id as "requestId", prev_hash as "prevHash", hash`;
const toEvent = (row) => ({
    eventId: row.eventId,
    seq: Number(row.seq),
    at: toIso(row.at),
    actor: row.actor,
    action: row.action,
    resource: { type: row.resourceType, id: row.resourceId },
    ...(row.changes ? { changes: row.changes } : {}),
    requestId: row.requestId,
    prevHash: row.prevHash,
    hash: row.hash,
});
/** Appends an event that no audited row stands for, in the caller's transaction. */
export async function appendEvent(em, chain, event) {
    await em.execute('select comply_audit_append(?, ?::jsonb, ?, ?, ?, ?::jsonb, ?)', [
        chain,
        JSON.stringify(event.actor),
        event.action,
        event.resource.type,
        event.resource.id,
        event.changes ? JSON.stringify(event.changes) : null,
        event.requestId,
    ]);
}
/** A chain's events matching the filter, newest first, one more than the limit (to tell if a page follows). */
export async function selectEvents(em, chain, filter) {
    const where = ['chain = ?'];
    const params = [chain];
    if (filter.from)
        where.push('at >= ?') && params.push(filter.from);
    if (filter.to)
        where.push('at < ?') && params.push(filter.to);
    if (filter.actorId)
        where.push(`actor ->> 'id' = ?`) && params.push(filter.actorId);
    // An action names one (`requirement.updated`) or, ending in a dot, a family (`member.`).
    if (filter.action) {
        if (filter.action.endsWith('.'))
            where.push('starts_with(action, ?)') && params.push(filter.action);
        else
            where.push('action = ?') && params.push(filter.action);
    }
    if (filter.resourceType)
        where.push('resource_type = ?') && params.push(filter.resourceType);
    if (filter.beforeSeq !== undefined)
        where.push('seq < ?') && params.push(filter.beforeSeq);
    const rows = await em.execute(`select ${COLUMNS} from audit_events where ${where.join(' and ')} order by seq desc limit ?`, [...params, filter.limit + 1]);
    return rows.map(toEvent);
}
/** A page of a chain in order, from a sequence number on (verification walks the chain page by page). */
export async function selectChainPage(em, chain, afterSeq, limit) {
    const rows = await em.execute(`select ${COLUMNS} from audit_events where chain = ? and seq > ? order by seq limit ?`, [chain, afterSeq, limit]);
    return rows.map(toEvent);
}
/** The chain's head as the appender keeps it: the last sequence number and its hash (null before any event). */
export async function selectHead(em, chain) {
    const [row] = await em.execute('select seq, hash from audit_heads where chain = ?', [chain]);
    return row ? { seq: Number(row.seq), hash: row.hash } : null;
}
/**
 * Names who acts for the rest of the transaction, when it is learnt inside it (a person accepting an
 * invitation is known only once the token is used). Elsewhere `Database.actingAs` names the request's principal.
 */
export async function actAs(tx, actor, requestId) {
    await tx.execute(`select set_config('comply.actor', ?, true), set_config('comply.request_id', ?, true)`, [
        JSON.stringify(actor),
        requestId ?? '',
    ]);
}
//# sourceMappingURL=audit.store.js.map