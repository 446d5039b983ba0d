import { InvalidArgumentError } from 'commander';
import type { ReviewInputs } from '../../../features/reviews/reviews.service.js';
import { score as percent } from '../../api-client/format.js';
import type { Finding, ManagementReview } from '../../api-client/types.js';
import { describe } from '../output.js';
import { type Cell, plainTable } from '../ui/plain-table.js';

/** How `comply audits`, `comply findings` and `comply reviews` show the management-system loop. */

export const day = (at: string | null | undefined) => at?.slice(0, 10);

/** `<frameworkId>:<requirementId>`, split at the first colon (requirement ids may hold colons and spaces). */
export function parseRequirementRef(value: string): { frameworkId: string; requirementId: string } {
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) {
    throw new InvalidArgumentError('expected <frameworkId>:<requirementId>, e.g. iso-42001:A.6.2.4');
  }
  return { frameworkId: value.slice(0, at), requirementId: value.slice(at + 1) };
}

export const refText = (ref: { frameworkId: string; requirementId: string }) =>
  `${ref.frameworkId}:${ref.requirementId}`;

export const FINDING_COLUMNS = [
  'FINDING ID',
  'AUDIT ID',
  'KIND',
  'STATE',
  'CAPS',
  'OWNER',
  'DUE',
  'REQUIREMENTS',
];

export const findingRows = (findings: Finding[]): Cell[][] =>
  findings.map((finding) => [
    finding.findingId,
    finding.auditId,
    finding.kind,
    finding.state,
    finding.caps ? 'yes' : 'no',
    finding.owner,
    day(finding.dueDate),
    finding.requirements.map(refText).join(', '),
  ]);

/** The finding as key–value lines; `withRequirements` adds them on one line (where no table lists them). */
export const findingFields = (finding: Finding, withRequirements = true) => ({
  findingId: finding.findingId,
  audit: finding.auditId,
  kind: finding.kind,
  state: finding.state,
  caps: finding.caps
    ? 'yes: while it is open, its requirements count at most as in_progress'
    : finding.kind === 'major_nonconformity'
      ? 'no: closed by an effective check'
      : 'no: only an open major nonconformity caps',
  description: finding.description,
  ...(withRequirements
    ? { requirements: finding.requirements.map((r) => `${refText(r)} (${r.status})`).join(', ') || '-' }
    : {}),
  owner: finding.owner,
  due: finding.dueDate,
  'root cause': finding.rootCause,
  'corrective action': finding.correctiveAction,
  opened: finding.openedAt,
  closed: finding.closedAt,
});

/** A titled table, or a line saying there is nothing, for text made of several tables. */
export function section(title: string, columns: string[], rows: Cell[][], empty = 'none'): string {
  return rows.length ? `${title}\n${plainTable({ columns, rows })}` : `${title}: ${empty}`;
}

const counted = (counts: Record<string, number>) =>
  Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([key, count]) => `${key} ${count}`)
    .join(', ') || 'none';

const signed = (change: number | null) =>
  change === null ? 'n/a' : `${change > 0 ? '+' : ''}${change.toFixed(1)}`;

/** The inputs of a management review (9.3) as readable tables, each followed by its note when there is one. */
export function reviewInputsText(inputs: ReviewInputs, notes: Record<string, string> = {}): string {
  const note = (key: string) => (notes[key] ? `\n  note: ${notes[key]}` : '');
  const { nonconformities: nc, risks } = inputs;
  return [
    section(
      'Scores (from → to)',
      ['FRAMEWORK', 'FROM', 'TO', 'CHANGE', 'NAME'],
      inputs.scores.map((s) => [s.frameworkId, percent(s.from), percent(s.to), signed(s.change), s.name]),
    ) + note('scores'),
    `Nonconformities: ${nc.opened} opened, ${nc.closed} closed, ${nc.openAtEnd} open at the end; opened by kind: ${counted(nc.byKind)}${note('nonconformities')}`,
    section(
      'Audits completed',
      ['AUDIT ID', 'COMPLETED', 'FINDINGS', 'TITLE', 'CONCLUSION'],
      inputs.audits.completed.map((a) => [
        a.auditId,
        day(a.completedAt),
        counted(a.findingsByKind),
        a.title,
        a.conclusion,
      ]),
    ) + note('audits'),
    `Attestations by level: ${counted(inputs.attestations.byLevel)}${note('attestations')}`,
    `Risks by residual level: ${counted(risks.byLevel)}; by state: ${counted(risks.byState)}\n` +
      section(
        'Acceptances expiring within 90 days after the period',
        ['RISK ID', 'EXPIRES', 'TITLE'],
        risks.acceptancesExpiring.map((r) => [r.riskId, day(r.expiresAt), r.title]),
      ) +
      note('risks'),
    section(
      'Opportunities for improvement',
      ['FINDING ID', 'OPENED', 'DESCRIPTION'],
      inputs.opportunities.map((o) => [o.findingId, day(o.openedAt), o.description]),
    ) + note('opportunities'),
    section(
      'Actions from earlier reviews',
      ['REVIEW ID', 'HELD', 'OWNER', 'DUE', 'OVERDUE', 'DECISION'],
      inputs.earlierActions.map((a) => [
        a.reviewId,
        day(a.heldAt),
        a.owner,
        day(a.dueDate),
        a.overdue ? 'yes' : 'no',
        a.text,
      ]),
    ) + note('earlierActions'),
  ].join('\n\n');
}

export const decisionsText = (decisions: ManagementReview['decisions']) =>
  section(
    'Decisions',
    ['#', 'OWNER', 'DUE', 'DECISION'],
    decisions.map((d, index) => [index + 1, d.owner, day(d.dueDate), d.text]),
  );

export const reviewHead = (review: ManagementReview) =>
  describe({
    reviewId: review.reviewId,
    state: review.state,
    held: review.heldAt,
    period: `${review.period.from} → ${review.period.to} (end exclusive)`,
    attendees: review.attendees.join(', '),
    'content hash': review.contentHash,
    closed: review.closedAt,
  });

/** The whole review: what it is, its inputs with their notes, its decisions. */
export const reviewText = (review: ManagementReview) =>
  [
    reviewHead(review),
    reviewInputsText(review.inputs as unknown as ReviewInputs, review.notes),
    decisionsText(review.decisions),
  ].join('\n\n');
