import { EXPORT_FRAMEWORK, sortControls } from '../framework.js';
import { withoutUserInfo } from '../uri.js';
export function soaView(data) {
    return {
        framework: `${EXPORT_FRAMEWORK.name} ${EXPORT_FRAMEWORK.scope}`,
        orgId: data.org.orgId,
        orgName: data.org.name,
        generatedAt: data.generatedAt,
        lastModified: data.lastModified,
        score: data.score,
        counts: data.counts,
        history: data.history ?? [],
        snapshot: data.snapshot ?? null,
        rows: sortControls(data.controls).map((control) => ({
            controlId: control.controlId,
            domain: control.domain,
            domainTitle: control.domainTitle,
            title: control.title,
            applicable: control.applicable,
            justification: control.justification,
            status: control.status,
            evidence: control.evidence.map(({ evidenceId, type, title, fileUrl }) => ({
                evidenceId,
                type,
                title,
                fileUrl: withoutUserInfo(fileUrl),
            })),
            evidenceCount: Math.max(control.evidenceCount, control.evidence.length),
            reviewer: control.reviewer,
            updatedAt: control.updatedAt,
        })),
    };
}
const STATUS_LABELS = {
    implemented: 'Implemented',
    in_progress: 'In progress',
    not_started: 'Not started',
};
/** The status column of a row: a control that does not apply is excluded, whatever progress it records. */
export function statusText(row) {
    return row.applicable ? STATUS_LABELS[row.status] : 'Excluded';
}
/** `Title [id] url`: enough for an auditor to find the item, in plain text. */
export function evidenceReferenceText(ref) {
    const title = ref.title.replace(/\s+/g, ' ').trim();
    return `${title} [${ref.evidenceId}]${ref.fileUrl ? ` ${ref.fileUrl}` : ''}`;
}
/** Evidence references as lines, at most `limit` of them, then a count of the rest. */
export function evidenceReferenceLines(row, limit = Number.POSITIVE_INFINITY) {
    const lines = row.evidence.slice(0, limit).map(evidenceReferenceText);
    const rest = row.evidenceCount - lines.length;
    if (rest > 0)
        lines.push(`and ${rest} more`);
    return lines;
}
/** `72.5 %`, or a dash when no control is applicable. */
export function scoreText(score) {
    return score === null ? 'n/a (no applicable control)' : `${score.toFixed(1)} %`;
}
//# sourceMappingURL=soa-view.js.map