import { isExpired } from '../../../records/records.store.js';
import type { MemberRole } from '../../../shared/vocabulary.js';
import type {
  ControlStatus,
  ExportControl,
  ExportEvidence,
  ExportRisk,
  OrgExportData,
} from '../export.types.js';
import { EXPORT_FRAMEWORK, sortControls } from '../framework.js';
import { withoutUserInfo } from '../uri.js';
import type {
  JustificationSource,
  SoaApproval,
  SoaEvidenceRef,
  SoaRiskRef,
  SoaRow,
  SoaSignatory,
  SoaView,
} from './soa.types.js';
import { isoControlsOf } from './soa-checks.js';

/** Said in every format when the export carries no risks. */
export const NO_RISKS_NOTE =
  'Risks and checks are not part of this statement: a snapshot freezes the control records, not the risk register.';

/** The risks of the register by the ISO/IEC 42001 controls their treatment lists, in register order. */
function risksByControl(risks: ExportRisk[]): Map<string, SoaRiskRef[]> {
  const byControl = new Map<string, SoaRiskRef[]>();
  for (const risk of risks) {
    const ref: SoaRiskRef = {
      riskId: risk.riskId,
      title: risk.title,
      residualLevel: risk.residual.level,
      state: risk.state,
    };
    for (const controlId of isoControlsOf(risk)) {
      const list = byControl.get(controlId);
      if (list) list.push(ref);
      else byControl.set(controlId, [ref]);
    }
  }
  return byControl;
}

/** The risks cell of a row when the export carries no risks. */
export const RISKS_NOT_CARRIED = 'n/a (snapshot)';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The justification of an applicable control that has none of its own, in words, from its risks. */
export function justificationFromRisks(risks: SoaRiskRef[]): string {
  const named = risks.map(
    (risk) => `"${oneLine(risk.title)}" (${risk.riskId}, residual ${risk.residualLevel})`,
  );
  return risks.length === 1
    ? `Selected to treat risk ${named[0]}.`
    : `Selected to treat ${risks.length} risks: ${named.join('; ')}.`;
}

/** The row's justification and who wrote it: the officer's own, else one derived from the risks. */
function justificationOf(
  control: ExportControl,
  risks: SoaRiskRef[] | null,
): { justification: string | null; justificationSource: JustificationSource } {
  const own = control.justification?.trim() ? control.justification : null;
  if (own !== null) return { justification: own, justificationSource: 'officer' };
  if (control.applicable && risks?.length) {
    return { justification: justificationFromRisks(risks), justificationSource: 'risks' };
  }
  return { justification: control.justification, justificationSource: null };
}

/** Said in every format of a statement built from a snapshot taken before snapshots froze status notes. */
export const NO_STATUS_NOTES_NOTE =
  'Notes recorded with statuses are not part of this statement: this snapshot was taken before snapshots froze them.';

/** The instant a statement describes: its generation for live data, the snapshot's for a snapshot. */
export function asOfOf(data: Pick<OrgExportData, 'generatedAt' | 'snapshot'>): string {
  return data.snapshot?.createdAt ?? data.generatedAt;
}

const BLANK: SoaSignatory = { name: null, role: null, date: null };

/**
 * The approval block, filled with what comply knows: the person who exported the statement prepared it (an
 * auditor who exports one does not); who reviews and approves it is left to sign.
 */
export function approvalOf(data: Pick<OrgExportData, 'exportedBy' | 'generatedAt'>): SoaApproval {
  const by = data.exportedBy;
  const auditor: MemberRole = 'auditor';
  const preparedBy =
    by?.type === 'user' && by.role !== auditor
      ? { name: by.name, role: by.role, date: data.generatedAt }
      : BLANK;
  return { preparedBy, reviewedBy: BLANK, approvedBy: BLANK };
}

/** An evidence item as the statement lists it, expired or not at `asOf` (the records store's rule). */
function evidenceRef(evidence: ExportEvidence, asOf: Date): SoaEvidenceRef {
  return {
    evidenceId: evidence.evidenceId,
    type: evidence.type,
    title: evidence.title,
    description: evidence.description,
    fileUrl: withoutUserInfo(evidence.fileUrl),
    createdAt: evidence.createdAt,
    effectiveDate: evidence.effectiveDate,
    expiresAt: evidence.expiresAt,
    expired: isExpired(evidence.expiresAt, asOf),
  };
}

export function soaView(data: OrgExportData): SoaView {
  const byControl = data.risks ? risksByControl(data.risks) : null;
  const asOf = asOfOf(data);
  const asOfInstant = new Date(asOf);
  const notes = [
    ...(data.risks ? [] : [NO_RISKS_NOTE]),
    ...(data.snapshot && !data.snapshotHasNotes ? [NO_STATUS_NOTES_NOTE] : []),
  ];
  return {
    framework: `${EXPORT_FRAMEWORK.name} ${EXPORT_FRAMEWORK.scope}`,
    orgId: data.org.orgId,
    orgName: data.org.name,
    asOf,
    generatedAt: data.generatedAt,
    lastModified: data.lastModified,
    exportedBy: data.exportedBy ?? null,
    approval: approvalOf(data),
    score: data.score,
    counts: data.counts,
    history: data.history ?? [],
    snapshot: data.snapshot ?? null,
    checks: data.risks && data.checks ? data.checks : null,
    notes,
    rows: sortControls(data.controls).map((control): SoaRow => {
      const risks = byControl ? (byControl.get(control.controlId) ?? []) : null;
      return {
        controlId: control.controlId,
        domain: control.domain,
        domainTitle: control.domainTitle,
        title: control.title,
        applicable: control.applicable,
        ...justificationOf(control, risks),
        risks,
        status: control.status,
        note: control.note?.trim() ? control.note : null,
        evidence: control.evidence.map((evidence) => evidenceRef(evidence, asOfInstant)),
        evidenceCount: Math.max(control.evidenceCount, control.evidence.length),
        evidenceExpired: control.evidenceExpired === true,
        reviewer: control.reviewer,
        updatedAt: control.updatedAt,
      };
    }),
  };
}

const STATUS_LABELS: Record<ControlStatus, string> = {
  implemented: 'Implemented',
  in_progress: 'In progress',
  not_started: 'Not started',
};

/**
 * The status column of a row: a control that does not apply is excluded, whatever progress it records; an
 * implemented one whose evidence has all expired says so (the CI gate fails it).
 */
export function statusText(row: Pick<SoaRow, 'applicable' | 'status' | 'evidenceExpired'>): string {
  if (!row.applicable) return 'Excluded';
  const label = STATUS_LABELS[row.status];
  return row.status === 'implemented' && row.evidenceExpired ? `${label} (all evidence expired)` : label;
}

/** A derived justification says so in the formats that show text alone. */
export function justificationText(row: Pick<SoaRow, 'justification' | 'justificationSource'>): string {
  if (row.justification === null) return '';
  return row.justificationSource === 'risks'
    ? `(derived from risks) ${row.justification}`
    : row.justification;
}

const RISK_STATE_LABELS: Record<SoaRiskRef['state'], string> = {
  open: 'open',
  treating: 'treating',
  treated: 'treated',
  accepted: 'accepted',
  needs_acceptance: 'needs acceptance',
};

/** `Title [id] residual high, treating`: a risk in one line of plain text. */
export function riskReferenceText(risk: SoaRiskRef): string {
  return `${oneLine(risk.title)} [${risk.riskId}] residual ${risk.residualLevel}, ${RISK_STATE_LABELS[risk.state]}`;
}

/** `high · treatment_overdue · message`: a check in one line of plain text. */
export function checkText(check: { severity: string; kind: string; message: string }): string {
  return `[${check.severity}] ${check.kind}: ${oneLine(check.message)}`;
}

const UUID = /\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Text for a reader: a UUID in it (an attestation's, a storage key) is cut to its first eight digits. */
export function withoutRawUuids(text: string): string {
  return text.replace(UUID, '$1…');
}

/** `2026-11-22`: the UTC day of an instant. */
export function dayText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().slice(0, 10);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Where an evidence item is: the host and path of an http(s) URL, else the file name of what it names. */
export function evidenceLocation(fileUrl: string | null): string | null {
  if (!fileUrl?.trim()) return null;
  const url = URL.parse(fileUrl);
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) {
    const path = url.pathname === '/' ? '' : decoded(url.pathname);
    return withoutRawUuids(oneLine(`${url.host}${path}`));
  }
  const name = (url ? decoded(url.pathname) : fileUrl).split(/[\\/]/).filter(Boolean).at(-1);
  return withoutRawUuids(oneLine(name ?? fileUrl));
}

/** What an evidence item reads as, in parts each format puts together. */
export interface EvidenceParts {
  /** Its title (else its description, else its type), on one line, without raw UUIDs. */
  label: string;
  type: SoaEvidenceRef['type'];
  /** `host/path` or a file name; null when it has no file. */
  location: string | null;
  /** `effective 2026-11-01` (when valid from a date) or `added 2026-11-01`. */
  dated: string;
  /** `expires 2027-01-01` while current; null when it never expires or has expired. */
  expires: string | null;
  /** `EXPIRED 2026-11-10` once expired at the statement's as-of time; null while current. */
  expired: string | null;
}

export function evidenceParts(ref: SoaEvidenceRef): EvidenceParts {
  const label = oneLine(ref.title) || oneLine(ref.description ?? '') || ref.type;
  return {
    label: withoutRawUuids(label),
    type: ref.type,
    location: evidenceLocation(ref.fileUrl),
    dated: ref.effectiveDate ? `effective ${dayText(ref.effectiveDate)}` : `added ${dayText(ref.createdAt)}`,
    expires: ref.expiresAt && !ref.expired ? `expires ${dayText(ref.expiresAt)}` : null,
    expired: ref.expiresAt && ref.expired ? `EXPIRED ${dayText(ref.expiresAt)}` : null,
  };
}

/**
 * `EXPIRED 2026-11-10: Title (document, host/path, added 2026-11-01)` or `Title (link, host/path, added
 * 2026-11-01, expires 2027-01-01)`: what the item is, where, from when and until when, in plain text.
 */
export function evidenceReferenceText(ref: SoaEvidenceRef): string {
  const parts = evidenceParts(ref);
  const details = [parts.type, parts.location, parts.dated, parts.expires].filter(Boolean).join(', ');
  return `${parts.expired ? `${parts.expired}: ` : ''}${parts.label} (${details})`;
}

/** Evidence references as lines, at most `limit` of them, then a count of the rest. */
export function evidenceReferenceLines(row: SoaRow, limit = Number.POSITIVE_INFINITY): string[] {
  const lines = row.evidence.slice(0, limit).map(evidenceReferenceText);
  const rest = row.evidenceCount - lines.length;
  if (rest > 0) lines.push(`and ${rest} more`);
  return lines;
}

/** `72.5 %`, or a dash when no control is applicable. */
export function scoreText(score: number | null): string {
  return score === null ? 'n/a (no applicable control)' : `${score.toFixed(1)} %`;
}
