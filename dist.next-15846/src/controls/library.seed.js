import { readFileSync } from 'node:fs';
import { seedIsoRecords } from '../requirements/requirements.store.js';
let library;
/** The ISO/IEC 42001:2023 Annex A library shipped in fixtures/. */
export function controlLibrary() {
    library ??= JSON.parse(readFileSync(new URL('../../fixtures/iso42001-controls.json', import.meta.url), 'utf8'));
    return library;
}
export const DOMAIN_IDS = () => controlLibrary().domains.map((domain) => domain.id);
/** Upserts the library in one statement; safe to run at every start. New controls reach existing orgs too. */
export async function seedControlLibrary(em) {
    const { domains, controls } = controlLibrary();
    const domainTitle = new Map(domains.map((domain) => [domain.id, domain.title]));
    await em.transactional(async (tx) => {
        await tx.execute(`insert into controls (control_id, domain, domain_title, title, description, sort_order)
       values ${controls.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}
       on conflict (control_id) do update set domain = excluded.domain, domain_title = excluded.domain_title,
         title = excluded.title, description = excluded.description, sort_order = excluded.sort_order
       where (controls.domain, controls.domain_title, controls.title, controls.description, controls.sort_order)
         is distinct from (excluded.domain, excluded.domain_title, excluded.title, excluded.description, excluded.sort_order)`, controls.flatMap((control, index) => [
            control.controlId,
            control.domain,
            domainTitle.get(control.domain) ?? control.domain,
            control.title,
            control.description,
            index,
        ]));
        await seedIsoRecords(tx);
    });
}
/**
 * The org's ISO/IEC 42001 records joined with the library, in library order; controls without a record are
 * left out. Every view of an org's controls (list, score, snapshot, export) reads them through this join.
 */
export function withLibraryControls(records) {
    const { domains, controls } = controlLibrary();
    const titles = new Map(domains.map((domain) => [domain.id, domain.title]));
    const byId = new Map(records.map((record) => [record.requirementId, record]));
    return controls.flatMap((control) => {
        const record = byId.get(control.controlId);
        return record ? [{ ...control, domainTitle: titles.get(control.domain) ?? control.domain, record }] : [];
    });
}
//# sourceMappingURL=library.seed.js.map