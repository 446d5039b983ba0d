import { bufferToVector, vectorToBuffer } from './vector-codec.js';
const INSERT_BATCH = 200;
export async function storedFingerprint(em, model) {
    const [row] = await em.execute('select fingerprint from cte_embedding_sets where model = ?', [model]);
    return row?.fingerprint;
}
/** The stored vectors when they were made for `fingerprint` and match the documents, else undefined. */
export async function loadStoredVectors(em, model, fingerprint, documents) {
    if ((await storedFingerprint(em, model)) !== fingerprint)
        return undefined;
    const rows = await em.execute(`select framework_id as "frameworkId", requirement_id as "requirementId", vector
     from cte_embeddings where model = ? order by position`, [model]);
    if (rows.length !== documents.length)
        return undefined;
    const aligned = rows.every((row, i) => row.frameworkId === documents[i].frameworkId && row.requirementId === documents[i].requirementId);
    return aligned ? rows.map((row) => bufferToVector(row.vector)) : undefined;
}
/** Replaces the model's vector set; the set row is locked so concurrent writers take turns. */
export async function storeVectors(em, input) {
    await em.transactional(async (tx) => {
        await tx.execute(`insert into cte_embedding_sets (model, fingerprint, dimension, vector_count, computed_at)
       values (?, '', 0, 0, now()) on conflict (model) do nothing`, [input.model]);
        const [set] = await tx.execute('select fingerprint from cte_embedding_sets where model = ? for update', [input.model]);
        if (set.fingerprint === input.fingerprint)
            return;
        await tx.execute('delete from cte_embeddings where model = ?', [input.model]);
        for (let start = 0; start < input.documents.length; start += INSERT_BATCH) {
            const batch = input.documents.slice(start, start + INSERT_BATCH);
            const params = batch.flatMap((document, i) => [
                input.model,
                start + i,
                document.frameworkId,
                document.requirementId,
                vectorToBuffer(input.vectors[start + i]),
            ]);
            await tx.execute(`insert into cte_embeddings (model, position, framework_id, requirement_id, vector) values ${batch
                .map(() => '(?, ?, ?, ?, ?)')
                .join(', ')}`, params);
        }
        await tx.execute(`update cte_embedding_sets set fingerprint = ?, dimension = ?, vector_count = ?, computed_at = ?
       where model = ?`, [input.fingerprint, input.dimension, input.documents.length, new Date(), input.model]);
    });
}
//# sourceMappingURL=embeddings.store.js.map