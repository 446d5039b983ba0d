import { createHash, randomUUID } from 'node:crypto';
import { IsolationLevel } from '@mikro-orm/core';
import canonicalize from 'canonicalize';
import type { Static } from 'typebox';
import type { Em } from '../db.js';
import { conflict, resourceNotFound } from '../errors.js';
import { isExpired } from '../evidence/evidence.service.js';
import type { EvidenceType } from '../evidence/evidence.store.js';
import type {
  SnapshotControlSchema,
  SnapshotSchema,
  SnapshotSummarySchema,
  SnapshotVerificationSchema,
} from './compliance.schemas.js';
import { type DomainControlState, scoreByDomain } from './compliance.service.js';
import { countStates, type ScoreCounts, scoreOf } from './score.js';

export type SnapshotView = Static<typeof SnapshotSchema>;
export type SnapshotSummary = Static<typeof SnapshotSummarySchema>;
export type SnapshotVerification = Static<typeof SnapshotVerificationSchema>;
type SnapshotControl = Static<typeof SnapshotControlSchema>;
/** What the hash covers: the whole snapshot except the hash itself. */
export type SnapshotContent = Omit<SnapshotView, 'contentHash'>;

/** SHA-256 (hex) of the RFC 8785 canonical JSON: the same bytes whatever the key order or whitespace. */
export function contentHashOf(content: unknown): string {
  return createHash('sha256')
    .update(canonicalize(content) ?? '', 'utf8')
    .digest('hex');
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

interface ControlRow extends DomainControlState {
  controlId: string;
  title: string;
  justification: string | null;
  reviewer: string | null;
  updatedAt: Date | string;
}

interface EvidenceRow {
  controlId: string;
  evidenceId: string;
  type: EvidenceType;
  title: string;
  fileUrl: string | null;
  createdAt: Date | string;
  effectiveDate: Date | string | null;
  expiresAt: Date | string | null;
}

/** Every control's state and every evidence reference, read from one consistent view of the database. */
async function captureControls(tx: Em, orgId: string, at: Date) {
  const controls = await tx.execute<ControlRow[]>(
    `select c.control_id as "controlId", c.domain, c.domain_title as "domainTitle", c.title, oc.status,
       oc.applicable, oc.justification, oc.reviewer, oc.updated_at as "updatedAt"
     from org_controls oc join controls c on c.control_id = oc.control_id
     where oc.org_id = ? order by c.sort_order`,
    [orgId],
  );
  const evidence = await tx.execute<EvidenceRow[]>(
    `select control_id as "controlId", evidence_id as "evidenceId", type, title, file_url as "fileUrl",
       created_at as "createdAt", effective_date as "effectiveDate", expires_at as "expiresAt"
     from evidence where org_id = ? order by control_id, created_at desc, evidence_id desc`,
    [orgId],
  );
  const byControl = new Map<string, SnapshotControl['evidence']>();
  for (const row of evidence) {
    const list = byControl.get(row.controlId) ?? [];
    list.push({
      evidenceId: row.evidenceId,
      type: row.type,
      title: row.title,
      fileUrl: row.fileUrl,
      createdAt: new Date(row.createdAt).toISOString(),
      effectiveDate: iso(row.effectiveDate),
      expiresAt: iso(row.expiresAt),
      expired: isExpired(row.expiresAt, at),
    });
    byControl.set(row.controlId, list);
  }
  const snapshotControls: SnapshotControl[] = controls.map((row) => {
    const items = byControl.get(row.controlId) ?? [];
    return {
      controlId: row.controlId,
      domain: row.domain,
      title: row.title,
      status: row.status,
      applicable: row.applicable,
      justification: row.justification,
      reviewer: row.reviewer,
      updatedAt: new Date(row.updatedAt).toISOString(),
      evidenceCount: items.length,
      evidence: items,
    };
  });
  return { rows: controls, controls: snapshotControls };
}

/**
 * Freezes the org's compliance state under a label. The label is claimed by a unique constraint, so two
 * concurrent requests with the same label cannot both succeed.
 */
export async function createSnapshot(
  em: Em,
  input: { orgId: string; label: string; notes?: string; createdBy: string | null },
  now = new Date(),
): Promise<SnapshotView> {
  const labelTaken = () => conflict('A snapshot with this label already exists', { label: input.label });
  const [existing] = await em.execute<{ found: number }[]>(
    'select 1 as found from compliance_snapshots where org_id = ? and label = ?',
    [input.orgId, input.label],
  );
  if (existing) throw labelTaken();
  return em.transactional(
    async (tx) => {
      const { rows, controls } = await captureControls(tx, input.orgId, now);
      const counts = countStates(rows);
      const content: SnapshotContent = {
        snapshotId: randomUUID(),
        orgId: input.orgId,
        label: input.label,
        notes: input.notes ?? null,
        createdAt: now.toISOString(),
        score: scoreOf(counts),
        counts,
        byDomain: scoreByDomain(rows),
        controls,
      };
      const contentHash = contentHashOf(content);
      const inserted = await tx.execute<{ snapshotId: string }[]>(
        `insert into compliance_snapshots
           (snapshot_id, org_id, label, notes, created_at, created_by, score, counts, content, content_hash)
         values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)
         on conflict (org_id, label) do nothing returning snapshot_id as "snapshotId"`,
        [
          content.snapshotId,
          input.orgId,
          input.label,
          content.notes,
          now,
          input.createdBy,
          content.score,
          JSON.stringify(counts),
          JSON.stringify(content),
          contentHash,
        ],
      );
      if (inserted.length === 0) throw labelTaken();
      return { ...content, contentHash };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

interface SummaryRow {
  snapshotId: string;
  label: string;
  notes: string | null;
  createdAt: Date | string;
  score: number | null;
  counts: ScoreCounts;
  contentHash: string;
}

const SUMMARY_COLUMNS = `snapshot_id as "snapshotId", label, notes, created_at as "createdAt", score, counts,
  content_hash as "contentHash"`;

export async function listSnapshots(
  em: Em,
  orgId: string,
  query: { limit?: number; offset?: number },
): Promise<{ snapshots: SnapshotSummary[]; total: number; limit: number; offset: number }> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const rows = await em.execute<SummaryRow[]>(
    `select ${SUMMARY_COLUMNS} from compliance_snapshots where org_id = ?
     order by created_at desc, snapshot_id desc limit ? offset ?`,
    [orgId, limit, offset],
  );
  const [{ total }] = await em.execute<{ total: number }[]>(
    'select count(*)::int as total from compliance_snapshots where org_id = ?',
    [orgId],
  );
  return {
    snapshots: rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })),
    total,
    limit,
    offset,
  };
}

async function readSnapshot(em: Em, orgId: string, snapshotId: string) {
  const [row] = await em.execute<{ content: SnapshotContent; contentHash: string }[]>(
    `select content, content_hash as "contentHash" from compliance_snapshots
     where org_id = ? and snapshot_id = ?`,
    [orgId, snapshotId],
  );
  if (!row) throw resourceNotFound('Snapshot', { snapshotId });
  return row;
}

export async function getSnapshot(em: Em, orgId: string, snapshotId: string): Promise<SnapshotView> {
  const { content, contentHash } = await readSnapshot(em, orgId, snapshotId);
  return { ...content, contentHash };
}

/** Recomputes the hash of the stored content: `valid` is false if anything changed since it was taken. */
export async function verifySnapshot(
  em: Em,
  orgId: string,
  snapshotId: string,
): Promise<SnapshotVerification> {
  const { content, contentHash } = await readSnapshot(em, orgId, snapshotId);
  const computedHash = contentHashOf(content);
  return { snapshotId, contentHash, computedHash, valid: computedHash === contentHash };
}
