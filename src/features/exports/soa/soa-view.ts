import type { ControlStatus, ExportControl, ExportRisk, OrgExportData } from '../export.types.js';
import { EXPORT_FRAMEWORK, sortControls } from '../framework.js';
import { withoutUserInfo } from '../uri.js';
import type { JustificationSource, SoaEvidenceRef, SoaRiskRef, SoaRow, SoaView } from './soa.types.js';
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

export function soaView(data: OrgExportData): SoaView {
  const byControl = data.risks ? risksByControl(data.risks) : null;
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
    checks: data.risks && data.checks ? data.checks : null,
    notes: data.risks ? [] : [NO_RISKS_NOTE],
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
        evidence: control.evidence.map(({ evidenceId, type, title, fileUrl }) => ({
          evidenceId,
          type,
          title,
          fileUrl: withoutUserInfo(fileUrl),
        })),
        evidenceCount: Math.max(control.evidenceCount, control.evidence.length),
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

/** The status column of a row: a control that does not apply is excluded, whatever progress it records. */
export function statusText(row: Pick<SoaRow, 'applicable' | 'status'>): string {
  return row.applicable ? STATUS_LABELS[row.status] : 'Excluded';
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

/** `Title [id] url`: enough for an auditor to find the item, in plain text. */
export function evidenceReferenceText(ref: SoaEvidenceRef): string {
  const title = ref.title.replace(/\s+/g, ' ').trim();
  return `${title} [${ref.evidenceId}]${ref.fileUrl ? ` ${ref.fileUrl}` : ''}`;
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
