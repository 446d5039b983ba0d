import { readRecordStates } from '../../records/records.store.js';
import { countStates, scoreByDomain, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { controlLibrary, withLibraryControls } from '../controls/library.seed.js';
/** ISO/IEC 42001 control states with their Annex A domains, in library order. */
export function isoDomainStates(states) {
    return withLibraryControls(states).map(({ domain, record }) => ({
        domain,
        status: record.status,
        applicable: record.applicable,
    }));
}
/** Overall and per-domain scores of ISO/IEC 42001 control states. */
export function isoScores(states) {
    const rows = isoDomainStates(states);
    const counts = countStates(rows);
    return { score: scoreOf(counts), counts, byDomain: scoreByDomain(controlLibrary().domains, rows) };
}
/** The current score of an org: overall and per Annex A domain. */
export async function currentCompliance(em, orgId, now = new Date()) {
    return {
        orgId,
        ...isoScores(await readRecordStates(em, orgId, { frameworkId: ISO_42001 })),
        computedAt: now.toISOString(),
    };
}
//# sourceMappingURL=compliance.service.js.map