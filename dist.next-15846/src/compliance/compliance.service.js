import { withLibraryControls } from '../controls/library.seed.js';
import { readRecordStates } from '../requirements/requirements.store.js';
import { ISO_42001 } from '../vocabulary.js';
import { countStates, scoreOf } from './score.js';
/** Scores per domain, in library order (the rows must come in that order). */
export function scoreByDomain(rows) {
    const domains = new Map();
    for (const row of rows) {
        const entry = domains.get(row.domain) ?? { title: row.domainTitle, states: [] };
        entry.states.push(row);
        domains.set(row.domain, entry);
    }
    return [...domains].map(([domain, { title, states }]) => {
        const counts = countStates(states);
        return { domain, domainTitle: title, score: scoreOf(counts), controlCount: states.length, counts };
    });
}
/** ISO/IEC 42001 control states with their Annex A domains, in library order. */
export function isoDomainStates(states) {
    return withLibraryControls(states).map(({ domain, domainTitle, record }) => ({
        domain,
        domainTitle,
        status: record.status,
        applicable: record.applicable,
    }));
}
/** The current score of an org: overall and per Annex A domain. */
export async function currentCompliance(em, orgId, now = new Date()) {
    const rows = isoDomainStates(await readRecordStates(em, orgId, { frameworkId: ISO_42001 }));
    const counts = countStates(rows);
    return {
        orgId,
        score: scoreOf(counts),
        counts,
        byDomain: scoreByDomain(rows),
        computedAt: now.toISOString(),
    };
}
//# sourceMappingURL=compliance.service.js.map