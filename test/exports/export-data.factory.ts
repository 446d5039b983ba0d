import { controlLibrary } from '../../src/features/controls/library.seed.js';
import type {
  ControlStatus,
  EvidenceType,
  ExportControl,
  ExportEvidence,
  OrgExportData,
} from '../../src/features/exports/export.types.js';

const library = controlLibrary();
const domainTitles = new Map(library.domains.map((domain) => [domain.id, domain.title]));

const STATUSES: ControlStatus[] = ['not_started', 'in_progress', 'implemented'];
const EVIDENCE_TYPES: EvidenceType[] = ['attestation', 'document', 'link'];

export interface ExportDataOptions {
  /** Evidence items of the control at this position in the library (default: index % 5). */
  evidenceFor?: (index: number) => number;
  snapshot?: boolean;
}

function evidenceItem(controlId: string, index: number, k: number): ExportEvidence {
  const type = EVIDENCE_TYPES[k % 3];
  return {
    evidenceId: `ev-${index}-${k}`,
    controlId,
    type,
    title: `${type} ${k} for ${controlId}`,
    description: k % 2 === 0 ? null : `Evidence number ${k}.`,
    fileUrl: type === 'attestation' ? null : `https://files.example.com/evidence/${index}/${k}.pdf`,
    contentHash: type === 'document' ? 'ab'.repeat(32) : null,
    createdAt: new Date(Date.UTC(2026, 9, 1) + (index * 1000 + k) * 60_000).toISOString(),
    effectiveDate: null,
    // Documents run for a year, attestations 90 days; links do not expire.
    expiresAt:
      type === 'link'
        ? null
        : new Date(Date.UTC(2026, 9, 1) + (type === 'document' ? 365 : 90) * 86_400_000).toISOString(),
  };
}

/**
 * An organization holding every Annex A control, cycling through all six combinations of status and
 * applicability, with excluded controls justified, some reviewed, and evidence on some of each.
 */
export function exportData(options: ExportDataOptions = {}): OrgExportData {
  const evidenceFor = options.evidenceFor ?? ((index: number) => index % 5);
  const controls: ExportControl[] = library.controls.map((control, index) => {
    const applicable = Math.floor(index / 3) % 2 === 0;
    const evidence = Array.from({ length: evidenceFor(index) }, (_, k) =>
      evidenceItem(control.controlId, index, k),
    );
    return {
      ...control,
      domainTitle: domainTitles.get(control.domain) ?? control.domain,
      status: STATUSES[index % 3],
      applicable,
      justification: applicable ? null : `Out of scope: control ${control.controlId} does not apply to us.`,
      reviewer: index % 2 === 0 ? 'alice@acme.example' : null,
      note: index % 4 === 0 ? `Reviewed in the quarterly AIMS meeting (${control.controlId}).` : null,
      updatedAt: new Date(Date.UTC(2026, 10, 1) + index * 3_600_000).toISOString(),
      evidenceCount: evidence.length,
      evidence,
    };
  });
  const count = (predicate: (control: ExportControl) => boolean) => controls.filter(predicate).length;
  const applicable = controls.filter((control) => control.applicable);
  const implemented = count((c) => c.applicable && c.status === 'implemented');
  const inProgress = count((c) => c.applicable && c.status === 'in_progress');
  return {
    org: { orgId: 'acme', name: 'Acme AI Ltd.', createdAt: '2026-01-05T09:00:00.000Z' },
    generatedAt: '2026-11-22T10:00:00.000Z',
    lastModified: '2026-11-21T17:30:00.000Z',
    score: Math.round((1000 * (implemented + 0.5 * inProgress)) / applicable.length) / 10,
    counts: {
      implemented,
      inProgress,
      notStarted: count((c) => c.applicable && c.status === 'not_started'),
      notApplicable: count((c) => !c.applicable),
    },
    history: Array.from({ length: 30 }, (_, day) => ({
      periodStart: new Date(Date.UTC(2026, 9, 23 + day)).toISOString(),
      score: day === 4 ? null : Math.min(100, 20 + day * 1.5),
    })),
    snapshot: options.snapshot
      ? {
          snapshotId: 'snap-1',
          label: 'Audit 2026',
          createdAt: '2026-11-21T17:30:00.000Z',
          contentHash: 'cd'.repeat(32),
        }
      : undefined,
    controls,
    aiSystems: [
      {
        systemId: 'sys-1',
        name: 'Support chatbot',
        description: 'Answers customer questions.',
        owner: 'bob@acme.example',
        purpose: 'Customer support',
        riskLevel: 'limited',
        lifecycleStage: 'deployed',
      },
      {
        systemId: 'sys-2',
        name: 'Credit scoring',
        description: null,
        owner: null,
        purpose: null,
        riskLevel: 'high',
        lifecycleStage: 'development',
      },
    ],
  };
}

/** Spreads `total` evidence items over the 38 controls, for scale runs. */
export function evidenceSpread(total: number): (index: number) => number {
  const controls = library.controls.length;
  return (index) => Math.floor(total / controls) + (index < total % controls ? 1 : 0);
}
