/** Imported frameworks in the database (`cte_frameworks`): the converted framework as JSON. */
import { createHash } from 'node:crypto';
export function frameworkHash(framework) {
    return createHash('sha256').update(JSON.stringify(framework)).digest('hex');
}
/** Every imported framework with its content, in id order. */
export async function loadStoredFrameworks(em) {
    return em.execute(`select framework_id as "frameworkId", content_hash as "contentHash", content as framework
     from cte_frameworks order by framework_id`);
}
/** Ids and hashes only: a cheap way to tell whether the imported set changed. */
export async function storedFrameworkRefs(em) {
    return em.execute(`select framework_id as "frameworkId", content_hash as "contentHash" from cte_frameworks
     order by framework_id`);
}
/**
 * Inserts or replaces a framework by id. The row is locked first, so that two imports of one catalog
 * serialise and each reports what it did.
 */
export async function saveStoredFramework(em, input) {
    const { framework } = input;
    const hash = frameworkHash(framework);
    return em.transactional(async (tx) => {
        const [existing] = await tx.execute(`select content_hash as "contentHash" from cte_frameworks where framework_id = ? for update`, [framework.id]);
        if (existing?.contentHash === hash)
            return 'unchanged';
        const now = new Date();
        await tx.execute(`insert into cte_frameworks (framework_id, name, content, content_hash, source_uuid,
         requirement_count, skipped_withdrawn, imported_at, updated_at)
       values (?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)
       on conflict (framework_id) do update set name = excluded.name, content = excluded.content,
         content_hash = excluded.content_hash, source_uuid = excluded.source_uuid,
         requirement_count = excluded.requirement_count, skipped_withdrawn = excluded.skipped_withdrawn,
         updated_at = excluded.updated_at`, [
            framework.id,
            framework.name,
            JSON.stringify(framework),
            hash,
            input.sourceUuid ?? null,
            framework.requirements.length,
            input.skippedWithdrawn,
            now,
            now,
        ]);
        return existing ? 'replaced' : 'created';
    });
}
/**
 * The library's revision as `revisionOf` (library.service) spells it, in one statement: the imported set's
 * ids and hashes (in the order `loadStoredFrameworks` reads them) and the digest of the added edges (as
 * `analystEdgesDigest` computes it).
 */
const REVISION_SQL = `select 'builtin;' || coalesce((select string_agg(framework_id || ':' || content_hash, ','
     order by framework_id) from cte_frameworks), '')
   || ';edges:' || coalesce((select md5(string_agg(edge_id::text, ',' order by edge_id::text collate "C"))
     from cte_analyst_edges), '') as revision`;
export const readLibraryRevision = (em) => em.execute(REVISION_SQL).then(([row]) => row.revision);
//# sourceMappingURL=frameworks.store.js.map