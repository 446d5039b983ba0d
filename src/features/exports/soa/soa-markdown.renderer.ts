import { escapeMarkdownCell, escapeMarkdownInline, escapeMarkdownLine } from '../../../shared/markdown.js';
import { strictHttpUri } from '../uri.js';
import type { SoaEvidenceRef, SoaRow, SoaSignatory, SoaView } from './soa.types.js';
import {
  checkText,
  dayText,
  evidenceParts,
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
  'Note',
  'Evidence',
  'Reviewer',
  'Last update',
];

/**
 * Evidence as `Title (type, [host/path](<url>), added 2026-11-01, expires 2027-01-01)`, an expired item led
 * by a bold `EXPIRED <date>:`; the URL is the link's destination, which no escaping may alter.
 */
function evidenceCell(row: SoaRow): string {
  const lines = row.evidence.map((ref: SoaEvidenceRef) => {
    const parts = evidenceParts(ref);
    const uri = strictHttpUri(ref.fileUrl);
    const location =
      parts.location === null
        ? null
        : uri
          ? `[${escapeMarkdownInline(parts.location)}](<${uri}>)`
          : escapeMarkdownInline(parts.location);
    const details = [parts.type, location, parts.dated, parts.expires].filter(Boolean).join(', ');
    const lead = parts.expired ? `**${parts.expired}:** ` : '';
    return `${lead}${escapeMarkdownLine(parts.label)} (${details})`;
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

/** `Alice Martin <alice@acme.example> (owner)` or `API key "ci"`. */
function requesterText(view: SoaView): string {
  const by = view.exportedBy;
  if (!by) return 'not recorded';
  if (by.type === 'key') return `API key "${by.name}"`;
  return `${by.name}${by.email ? ` <${by.email}>` : ''}${by.role ? ` (${by.role})` : ''}`;
}

/** Who prepared, reviewed and approved the statement: what comply knows, and blank cells to sign. */
function approvalLines(view: SoaView): string[] {
  const { preparedBy, reviewedBy, approvedBy } = view.approval;
  const line = (label: string, who: SoaSignatory) =>
    tableRow([
      label,
      escapeMarkdownCell(who.name ?? ''),
      escapeMarkdownCell(who.role ?? ''),
      who.date ? dayText(who.date) : '',
      '',
    ]);
  return [
    tableRow(['', 'Name', 'Role', 'Date', 'Signature']),
    tableRow(['---', '---', '---', '---', '---']),
    line('Prepared by', preparedBy),
    line('Reviewed by', reviewedBy),
    line('Approved by', approvedBy),
  ];
}

/** A GitHub-flavoured Markdown document; every user-supplied text is escaped, in cells and outside. */
export function renderSoaMarkdown(view: SoaView): string {
  const { counts, snapshot } = view;
  const lines = [
    '# Statement of Applicability',
    '',
    `${escapeMarkdownLine(view.framework)}`,
    '',
    `- **Organization:** ${escapeMarkdownLine(view.orgName)} (${escapeMarkdownLine(view.orgId)})`,
    `- **As of:** ${escapeMarkdownLine(view.asOf)}${snapshot ? ' (the snapshot)' : ''}`,
    `- **Generated:** ${escapeMarkdownLine(view.generatedAt)}`,
    `- **Last change to the data:** ${escapeMarkdownLine(view.lastModified)}`,
    snapshot
      ? `- **Snapshot:** ${escapeMarkdownLine(snapshot.label)} (${escapeMarkdownLine(snapshot.snapshotId)}), taken ${escapeMarkdownLine(snapshot.createdAt)}, content hash ${escapeMarkdownLine(snapshot.contentHash)}`
      : '- **Snapshot:** none (live data)',
    `- **Exported by:** ${escapeMarkdownLine(requesterText(view))}`,
    `- **Compliance score:** ${scoreText(view.score)}`,
    `- **Controls:** ${counts.implemented} implemented, ${counts.inProgress} in progress, ${counts.notStarted} not started, ${counts.notApplicable} not applicable`,
    ...view.notes.map((note) => `- **Note:** ${escapeMarkdownLine(note)}`),
    '',
    '## Approval',
    '',
    ...approvalLines(view),
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
        escapeMarkdownCell(row.note ?? ''),
        evidenceCell(row),
        escapeMarkdownCell(row.reviewer ?? ''),
        escapeMarkdownCell(row.updatedAt),
      ]),
    );
  }
  return `${lines.join('\n')}\n`;
}
