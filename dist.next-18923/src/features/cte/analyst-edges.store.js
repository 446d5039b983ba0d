/**
 * Crosswalk edges added by analysts (`cte_analyst_edges`). Rows are never updated: an edge is added or
 * deleted, so the set of ids names the whole table's content.
 */
import { createHash } from 'node:crypto';
import { toIso } from '../../platform/db/instant.js';
import { pairKey } from './library.js';
export const ANALYST_ORIGIN = 'analyst';
const COLUMNS = `edge_id as "edgeId", source_framework_id as "sourceFrameworkId", source_id as "sourceId",
  target_framework_id as "targetFrameworkId", target_id as "targetId", relationship, rationale, reference,
  created_by as "createdBy", created_at as "createdAt"`;
/**
 * An analyst edge as a library edge. It is the analyst's judgement (`inferred`) unless it names the
 * published mapping it comes from, which then states it.
 */
function toEdge(row) {
    return {
        edgeId: row.edgeId,
        source: { frameworkId: row.sourceFrameworkId, requirementId: row.sourceId },
        target: { frameworkId: row.targetFrameworkId, requirementId: row.targetId },
        relationship: row.relationship,
        origin: ANALYST_ORIGIN,
        inferred: row.reference === null,
        rationale: row.rationale,
        added: {
            createdBy: row.createdBy,
            createdAt: toIso(row.createdAt),
            ...(row.reference === null ? {} : { reference: row.reference }),
        },
    };
}
/** Names a set of edges by their ids; `analystEdgesDigest` computes the same in the database. */
export function digestOf(edges) {
    if (edges.length === 0)
        return '';
    const ids = edges.map((edge) => edge.edgeId).sort();
    return createHash('md5').update(ids.join(',')).digest('hex');
}
/** Every analyst edge, oldest first. */
export async function loadAnalystEdges(em) {
    const rows = await em.execute(`select ${COLUMNS} from cte_analyst_edges order by created_at, edge_id`);
    return rows.map(toEdge);
}
/** The digest of the stored set, without reading it (one small aggregate). */
export async function analystEdgesDigest(em) {
    const [row] = await em.execute(`select md5(string_agg(edge_id::text, ',' order by edge_id::text collate "C")) as digest
     from cte_analyst_edges`);
    return row?.digest ?? '';
}
/**
 * Stores an edge unless one already joins its two requirements (either way round): the unique pair key
 * decides, so two concurrent requests cannot both add one. Returns the stored edge, or undefined.
 */
export async function insertAnalystEdge(em, input) {
    const [row] = await em.execute(`insert into cte_analyst_edges (edge_id, source_framework_id, source_id, target_framework_id, target_id,
       relationship, rationale, reference, pair_key, created_by, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (pair_key) do nothing returning ${COLUMNS}`, [
        input.edgeId,
        input.source.frameworkId,
        input.source.requirementId,
        input.target.frameworkId,
        input.target.requirementId,
        input.relationship,
        input.rationale,
        input.reference ?? null,
        pairKey(input.source, input.target),
        input.createdBy,
        input.createdAt,
    ]);
    return row ? toEdge(row) : undefined;
}
/** The stored edge joining two requirements, either way round. */
export async function analystEdgeBetween(em, a, b) {
    const [row] = await em.execute(`select ${COLUMNS} from cte_analyst_edges where pair_key = ?`, [
        pairKey(a, b),
    ]);
    return row ? toEdge(row) : undefined;
}
/** Deletes an analyst edge; false when there is none with this id. */
export async function deleteAnalystEdge(em, edgeId) {
    const rows = await em.execute(`delete from cte_analyst_edges where edge_id = ? returning edge_id as "edgeId"`, [edgeId]);
    return rows.length > 0;
}
//# sourceMappingURL=analyst-edges.store.js.map