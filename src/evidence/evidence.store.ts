import { randomUUID } from 'node:crypto';
import type { Em } from '../db.js';

export const EVIDENCE_TYPES = ['attestation', 'document', 'link'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

export interface NewEvidence {
  orgId: string;
  controlId: string;
  type: EvidenceType;
  title: string;
  description?: string | null;
  fileUrl?: string | null;
  attestationId?: string | null;
  effectiveDate?: Date | null;
  expiresAt?: Date | null;
  createdAt: Date;
  createdBy?: string | null;
}

const COLUMNS = [
  'evidence_id',
  'org_id',
  'control_id',
  'type',
  'title',
  'description',
  'file_url',
  'attestation_id',
  'effective_date',
  'expires_at',
  'created_at',
  'created_by',
];

/**
 * Inserts evidence rows (one multi-row statement) and updates each control's roll-up (counts, expiry)
 * with one statement per control. Call it inside the caller's transaction: evidence and roll-up commit
 * together. Returns the new ids in input order.
 */
export async function insertEvidence(tx: Em, rows: NewEvidence[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => randomUUID());
  const placeholders = rows.map(() => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ');
  const params = rows.flatMap((row, index) => [
    ids[index],
    row.orgId,
    row.controlId,
    row.type,
    row.title,
    row.description ?? null,
    row.fileUrl ?? null,
    row.attestationId ?? null,
    row.effectiveDate ?? null,
    row.expiresAt ?? null,
    row.createdAt,
    row.createdBy ?? null,
  ]);
  await tx.execute(`insert into evidence (${COLUMNS.join(', ')}) values ${placeholders}`, params);

  const byControl = new Map<
    string,
    {
      orgId: string;
      controlId: string;
      count: number;
      byType: Record<EvidenceType, number>;
      never: boolean;
      max: Date | null;
    }
  >();
  for (const row of rows) {
    const key = `${row.orgId}\u0000${row.controlId}`;
    const entry = byControl.get(key) ?? {
      orgId: row.orgId,
      controlId: row.controlId,
      count: 0,
      byType: { attestation: 0, document: 0, link: 0 },
      never: false,
      max: null,
    };
    entry.count += 1;
    entry.byType[row.type] += 1;
    if (!row.expiresAt) entry.never = true;
    else if (!entry.max || row.expiresAt > entry.max) entry.max = row.expiresAt;
    byControl.set(key, entry);
  }
  // Sorted so that concurrent batches lock the roll-up rows in the same order (no deadlocks).
  for (const entry of [...byControl.values()].sort((a, b) =>
    `${a.orgId}/${a.controlId}`.localeCompare(`${b.orgId}/${b.controlId}`),
  )) {
    await tx.execute(
      `update org_controls set evidence_count = evidence_count + ?,
         evidence_attestation_count = evidence_attestation_count + ?,
         evidence_document_count = evidence_document_count + ?,
         evidence_link_count = evidence_link_count + ?,
         evidence_never_expires = evidence_never_expires or ?,
         evidence_expires_max = greatest(evidence_expires_max, ?::timestamptz)
       where org_id = ? and control_id = ?`,
      [
        entry.count,
        entry.byType.attestation,
        entry.byType.document,
        entry.byType.link,
        entry.never,
        entry.max,
        entry.orgId,
        entry.controlId,
      ],
    );
  }
  return ids;
}
