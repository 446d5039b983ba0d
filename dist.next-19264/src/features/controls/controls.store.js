const CONTROL_COLUMNS = `control_id as "controlId", domain, domain_title as "domainTitle", title, description`;
/** The library, optionally of one domain and ranked by full-text relevance to `search`. */
export async function selectControls(em, query) {
    const params = [];
    const where = [];
    let rank = '';
    let order = 'sort_order';
    if (query.search) {
        // websearch_to_tsquery accepts any user text without syntax errors; ids match on their own too.
        rank = `, ts_rank(search_vector, websearch_to_tsquery('english', ?))::float8 as rank`;
        where.push(`(search_vector @@ websearch_to_tsquery('english', ?) or control_id ilike ?)`);
        params.push(query.search, query.search, `${query.search.replace(/[%_\\]/g, '\\$&')}%`);
        order = 'rank desc, sort_order';
    }
    if (query.domain) {
        where.push('domain = ?');
        params.push(query.domain);
    }
    return em.execute(`select ${CONTROL_COLUMNS}${rank} from controls ${where.length ? `where ${where.join(' and ')}` : ''} order by ${order}`, params);
}
export async function selectControl(em, controlId) {
    const [row] = await em.execute(`select ${CONTROL_COLUMNS} from controls where control_id = ?`, [controlId]);
    return row ?? null;
}
/** Every control id of the library. */
export async function selectControlIds(em) {
    const rows = await em.execute('select control_id as "controlId" from controls');
    return new Set(rows.map((row) => row.controlId));
}
/**
 * Upserts the library in one statement, in the given order; a control whose columns are unchanged is not
 * rewritten. Call it inside the caller's transaction.
 */
export async function upsertControls(tx, controls) {
    await tx.execute(`insert into controls (control_id, domain, domain_title, title, description, sort_order)
     values ${controls.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
     on conflict (control_id) do update set domain = excluded.domain, domain_title = excluded.domain_title,
       title = excluded.title, description = excluded.description, sort_order = excluded.sort_order
     where (controls.domain, controls.domain_title, controls.title, controls.description, controls.sort_order)
       is distinct from (excluded.domain, excluded.domain_title, excluded.title, excluded.description, excluded.sort_order)`, controls.flatMap((control, index) => [
        control.controlId,
        control.domain,
        control.domainTitle,
        control.title,
        control.description,
        index,
    ]));
}
//# sourceMappingURL=controls.store.js.map