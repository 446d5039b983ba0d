import { escapeMarkdownCell, escapeMarkdownLine } from '../../../shared/markdown.js';
import { strictHttpUri } from '../uri.js';
import { scoreText, statusText } from './soa-view.js';
const HEADER = [
    'Control',
    'Domain',
    'Title',
    'Applicable',
    'Justification',
    'Status',
    'Evidence',
    'Reviewer',
    'Last update',
];
/** Evidence as `Title [id] <url>`: the URL as an autolink, which no escaping may alter. */
function evidenceCell(row) {
    const lines = row.evidence.map((ref) => {
        const text = `${escapeMarkdownLine(ref.title)} \\[${escapeMarkdownLine(ref.evidenceId)}\\]`;
        const uri = strictHttpUri(ref.fileUrl);
        return uri ? `${text} <${uri}>` : ref.fileUrl ? `${text} ${escapeMarkdownLine(ref.fileUrl)}` : text;
    });
    const rest = row.evidenceCount - row.evidence.length;
    if (rest > 0)
        lines.push(`and ${rest} more`);
    return lines.join('<br>');
}
const tableRow = (cells) => `| ${cells.join(' | ')} |`;
/** A GitHub-flavoured Markdown document; every user-supplied text is escaped, in cells and outside. */
export function renderSoaMarkdown(view) {
    const { counts, snapshot } = view;
    const lines = [
        '# Statement of Applicability',
        '',
        `${escapeMarkdownLine(view.framework)}`,
        '',
        `- **Organization:** ${escapeMarkdownLine(view.orgName)} (${escapeMarkdownLine(view.orgId)})`,
        `- **Generated:** ${escapeMarkdownLine(view.generatedAt)}`,
        `- **Data as of:** ${escapeMarkdownLine(view.lastModified)}`,
        snapshot
            ? `- **Snapshot:** ${escapeMarkdownLine(snapshot.label)} (${escapeMarkdownLine(snapshot.snapshotId)}), taken ${escapeMarkdownLine(snapshot.createdAt)}, content hash ${escapeMarkdownLine(snapshot.contentHash)}`
            : '- **Snapshot:** none (live data)',
        `- **Compliance score:** ${scoreText(view.score)}`,
        `- **Controls:** ${counts.implemented} implemented, ${counts.inProgress} in progress, ${counts.notStarted} not started, ${counts.notApplicable} not applicable`,
        '',
        '## Controls',
        '',
        tableRow(HEADER),
        tableRow(HEADER.map(() => '---')),
    ];
    for (const row of view.rows) {
        lines.push(tableRow([
            escapeMarkdownCell(row.controlId),
            escapeMarkdownCell(`${row.domain} ${row.domainTitle}`),
            escapeMarkdownCell(row.title),
            row.applicable ? 'Yes' : 'No',
            escapeMarkdownCell(row.justification ?? ''),
            statusText(row),
            evidenceCell(row),
            escapeMarkdownCell(row.reviewer ?? ''),
            escapeMarkdownCell(row.updatedAt),
        ]));
    }
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=soa-markdown.renderer.js.map