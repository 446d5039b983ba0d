import { randomUUID } from 'node:crypto';
import type { Em } from '../../platform/db/database.js';
import { addEvidenceRollups, type EvidenceRollupDelta } from '../../records/records.store.js';
import type { EvidenceType } from '../../shared/vocabulary.js';

export interface NewEvidence {
  orgId: string;
  frameworkId: string;
  requirementId: string;
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
  'framework_id',
  'requirement_id',
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
 * Inserts evidence rows (one multi-row statement) and moves each requirement record's roll-up (counts, expiry)
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
    row.frameworkId,
    row.requirementId,
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

  const deltas = new Map<string, EvidenceRollupDelta>();
  for (const row of rows) {
    const key = `${row.orgId}\u0000${row.frameworkId}\u0000${row.requirementId}`;
    const delta = deltas.get(key) ?? {
      orgId: row.orgId,
      frameworkId: row.frameworkId,
      requirementId: row.requirementId,
      count: 0,
      byType: { attestation: 0, document: 0, link: 0 },
      neverExpires: false,
      expiresMax: null,
    };
    delta.count += 1;
    delta.byType[row.type] += 1;
    if (!row.expiresAt) delta.neverExpires = true;
    else if (!delta.expiresMax || row.expiresAt > delta.expiresMax) delta.expiresMax = row.expiresAt;
    deltas.set(key, delta);
  }
  await addEvidenceRollups(tx, [...deltas.values()]);
  return ids;
}
