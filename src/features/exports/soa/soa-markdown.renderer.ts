import { escapeMarkdownCell, escapeMarkdownLine } from '../../../shared/markdown.js';
import { strictHttpUri } from '../uri.js';
import type { SoaEvidenceRef, SoaRow, SoaView } from './soa.types.js';
import {
  checkText,
  justificationText,
  RISKS_NOT_CARRIED,
  riskReferenceText,
  scoreText,
  statusText,
} from './soa-view.js';

const HEADER = [
  'Control',
  'Domain',
  'Title',
  'Applicable',
  'Justification',
  'Risks',
  'Status',
  'Evidence',
  'Reviewer',
  'Last update',
];

/** Evidence as `Title [id] <url>`: the URL as an autolink, which no escaping may alter. */
function evidenceCell(row: SoaRow): string {
  const lines = row.evidence.map((ref: SoaEvidenceRef) => {
    const text = `${escapeMarkdownLine(ref.title)} \\[${escapeMarkdownLine(ref.evidenceId)}\\]`;
    const uri = strictHttpUri(ref.fileUrl);
    return uri ? `${text} <${uri}>` : ref.fileUrl ? `${text} ${escapeMarkdownLine(ref.fileUrl)}` : text;
  });
  const rest = row.evidenceCount - row.evidence.length;
  if (rest > 0) lines.push(`and ${rest} more`);
  return lines.join('<br>');
}

function risksCell(row: SoaRow): string {
  if (row.risks === null) return RISKS_NOT_CARRIED;
  return row.risks.map((risk) => escapeMarkdownCell(riskReferenceText(risk))).join('<br>');
}

/** The checks as a list, most severe first; none, or a note when the export does not carry them. */
function checkLines(view: SoaView): string[] {
  if (view.checks === null) return ['Not part of this statement (see the note above).'];
  if (view.checks.length === 0) return ['None: the risk treatment raises nothing to review.'];
  return view.checks.map((check) => `- ${escapeMarkdownLine(checkText(check))}`);
}

const tableRow = (cells: string[]) => `| ${cells.join(' | ')} |`;

/** A GitHub-flavoured Markdown document; every user-supplied text is escaped, in cells and outside. */
export function renderSoaMarkdown(view: SoaView): string {
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
    ...view.notes.map((note) => `- **Note:** ${escapeMarkdownLine(note)}`),
    '',
    '## Checks',
    '',
    ...checkLines(view),
    '',
    '## Controls',
    '',
    tableRow(HEADER),
    tableRow(HEADER.map(() => '---')),
  ];
  for (const row of view.rows) {
    lines.push(
      tableRow([
        escapeMarkdownCell(row.controlId),
        escapeMarkdownCell(`${row.domain} ${row.domainTitle}`),
        escapeMarkdownCell(row.title),
        row.applicable ? 'Yes' : 'No',
        escapeMarkdownCell(justificationText(row)),
        risksCell(row),
        statusText(row),
        evidenceCell(row),
        escapeMarkdownCell(row.reviewer ?? ''),
        escapeMarkdownCell(row.updatedAt),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}
