/**
 * Scores of every framework for an org, from the CTE's cached analysis: the one score rule of
 * records/score.ts over the effective status of each requirement. The ISO/IEC 42001 routes
 * (`/compliance`) are an adapter over the same rule (features/compliance).
 */
import { effectiveStatus, scoreAssessed, scoreByDomain } from '../../records/score.js';
import { requireFramework } from '../cte/library.service.js';
/** The current score of one framework for the org, overall and per domain. */
export function frameworkComplianceOf(analysis, frameworkId, now = new Date()) {
    const { orgId } = analysis;
    const framework = requireFramework(analysis.library, frameworkId);
    const rows = analysis.coverage.forFramework(frameworkId);
    const states = framework.requirements.map((requirement, index) => ({
        domain: requirement.domain,
        status: effectiveStatus(rows[index]),
        applicable: rows[index].applicable,
    }));
    return {
        orgId,
        frameworkId,
        ...scoreAssessed(rows),
        byDomain: scoreByDomain(framework.domains, states),
        computedAt: now.toISOString(),
    };
}
/** Every framework of the library with the org's score and CTE coverage of it. */
export function orgFrameworksOf(analysis) {
    return {
        orgId: analysis.orgId,
        frameworks: analysis.library.frameworks.map((framework) => {
            const rows = analysis.coverage.forFramework(framework.id);
            const applicable = rows.filter((row) => row.applicable);
            const covered = applicable.filter((row) => row.status === 'covered').length;
            const partial = applicable.filter((row) => row.status === 'partial').length;
            return {
                frameworkId: framework.id,
                name: framework.name,
                controlCount: framework.requirements.length,
                ...scoreAssessed(rows),
                coverage: applicable.length === 0
                    ? null
                    : Math.round(((covered + 0.5 * partial) / applicable.length) * 10_000) / 10_000,
            };
        }),
    };
}
//# sourceMappingURL=scores.service.js.map