import { describe, print } from '../output.js';
/** The inferred status, and whether a direct record overrides it with another one. */
function inferredText(entry) {
    const { status, coverage } = entry.inferred;
    const differs = entry.assessment === 'direct' && status !== entry.status;
    return `${status} (${coverage})${differs ? ', differs from the direct record' : ''}`;
}
/** One requirement: the org's record, then the crosswalk reasoning and the latest evidence. */
export function showRequirement(json, entry) {
    const reasons = (entry.inferred.justifications ?? []).map((why) => `  ${why.frameworkId} ${why.controlId} (${why.controlStatus}, ${why.credit}): ${why.path
        .map((hop) => hop.text)
        .join(' → ')}`);
    const evidence = entry.evidence.map((item) => `  ${item.createdAt.slice(0, 10)}  ${item.type}  ${item.title}${item.expired ? ' (expired)' : ''}`);
    return print({ json }, {
        data: entry,
        text: [
            describe({
                requirement: `${entry.frameworkId} ${entry.requirementId}  ${entry.title}`,
                domain: entry.domain,
                status: entry.status,
                assessment: entry.assessment,
                inferred: inferredText(entry),
                applicable: entry.applicable,
                justification: entry.justification,
                reviewer: entry.reviewer,
                owner: entry.owner,
                note: entry.note,
                updated: entry.updatedAt,
                evidence: `${entry.evidenceCount}${entry.evidenceExpired ? ' (all expired)' : ''}`,
            }),
            `inferred from:${reasons.length ? `\n${reasons.join('\n')}` : ' nothing (no direct record reaches it)'}`,
            ...(evidence.length ? [`latest evidence:\n${evidence.join('\n')}`] : []),
        ].join('\n'),
    });
}
//# sourceMappingURL=requirement-view.js.map