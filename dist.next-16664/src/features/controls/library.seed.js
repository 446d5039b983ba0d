import { readFileSync } from 'node:fs';
import { seedIsoRecords } from '../../records/records.store.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { upsertControls } from './controls.store.js';
/** The one ISO/IEC 42001 fixture: the crosswalk engine reads the same file as a framework of its library. */
export const ISO_42001_FIXTURE = new URL(`../../../fixtures/frameworks/${ISO_42001}.json`, import.meta.url);
let library;
/** The ISO/IEC 42001:2023 Annex A control library, derived from the framework fixture (read once). */
export function controlLibrary() {
    library ??= controlLibraryOf(JSON.parse(readFileSync(ISO_42001_FIXTURE, 'utf8')));
    return library;
}
function controlLibraryOf(framework) {
    return {
        standard: framework.name,
        domains: framework.domains.map(({ id, title }) => ({ id, title })),
        controls: framework.requirements.map(({ id, domain, title, description }) => ({
            controlId: id,
            domain,
            title,
            description,
        })),
    };
}
export const DOMAIN_IDS = () => controlLibrary().domains.map((domain) => domain.id);
/** Upserts the library in one statement; safe to run at every start. New controls reach existing orgs too. */
export async function seedControlLibrary(em) {
    const { domains, controls } = controlLibrary();
    const domainTitle = new Map(domains.map((domain) => [domain.id, domain.title]));
    await em.transactional(async (tx) => {
        await upsertControls(tx, controls.map((control) => ({
            ...control,
            domainTitle: domainTitle.get(control.domain) ?? control.domain,
        })));
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
/** The judgement every view of a control shows; ISO 42001 records always hold a status and an applicability. */
export function controlJudgement(record) {
    return {
        status: record.status ?? 'not_started',
        applicable: record.applicable ?? true,
        justification: record.justification,
        reviewer: record.reviewer,
        updatedAt: record.updatedAt,
    };
}
//# sourceMappingURL=library.seed.js.map