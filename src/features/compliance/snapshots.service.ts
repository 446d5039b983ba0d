import { createHash, randomUUID } from 'node:crypto';
import { IsolationLevel } from '@mikro-orm/core';
import canonicalize from 'canonicalize';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { retryingTransaction } from '../../platform/db/retry.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import { isExpired, type RecordRow, readRecords } from '../../records/records.store.js';
import { stateKey } from '../../records/state-log.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { controlJudgement, withLibraryControls } from '../controls/library.seed.js';
import { selectOrgEvidence } from '../evidence/evidence.store.js';
import type {
  SnapshotControlSchema,
  SnapshotRecordSchema,
  SnapshotSchema,
  SnapshotSummarySchema,
  SnapshotVerificationSchema,
} from './compliance.schemas.js';
import { isoScores } from './compliance.service.js';
import {
  insertSnapshot,
  selectSnapshotContent,
  selectSnapshotSummaries,
  snapshotExists,
  snapshotLabelTaken,
} from './snapshots.store.js';

export type SnapshotView = Static<typeof SnapshotSchema>;
export type SnapshotSummary = Static<typeof SnapshotSummarySchema>;
export type SnapshotVerification = Static<typeof SnapshotVerificationSchema>;
type SnapshotControl = Static<typeof SnapshotControlSchema>;
type SnapshotRecord = Static<typeof SnapshotRecordSchema>;
/** What the hash covers: the whole snapshot except the hash itself. */
export type SnapshotContent = Omit<SnapshotView, 'contentHash'>;

/** SHA-256 (hex) of the RFC 8785 canonical JSON: the same bytes whatever the key order or whitespace. */
export function contentHashOf(content: unknown): string {
  return createHash('sha256')
    .update(canonicalize(content) ?? '', 'utf8')
    .digest('hex');
}

/**
 * Every requirement record (ISO/IEC 42001 controls, and the direct records of other frameworks) with every
 * evidence reference, read from one consistent view of the database.
 */
async function captureRecords(tx: Em, orgId: string, at: Date) {
  const records = await readRecords(tx, orgId);
  const evidence = await selectOrgEvidence(tx, orgId);
  const byRecord = new Map<string, SnapshotControl['evidence']>();
  for (const row of evidence) {
    const key = stateKey(row.frameworkId, row.requirementId);
    const list = byRecord.get(key) ?? [];
    list.push({
      evidenceId: row.evidenceId,
      type: row.type,
      title: row.title,
      fileUrl: row.fileUrl,
      createdAt: row.createdAt,
      effectiveDate: row.effectiveDate,
      expiresAt: row.expiresAt,
      expired: isExpired(row.expiresAt, at),
    });
    byRecord.set(key, list);
  }
  const evidenceOf = (record: RecordRow) =>
    byRecord.get(stateKey(record.frameworkId, record.requirementId)) ?? [];
  const iso42001 = records.filter((record) => record.frameworkId === ISO_42001);
  const controls: SnapshotControl[] = withLibraryControls(iso42001).map(
    ({ controlId, domain, title, record }) => {
      const items = evidenceOf(record);
      return {
        controlId,
        domain,
        title,
        ...controlJudgement(record),
        note: record.note,
        evidenceCount: items.length,
        evidence: items,
      };
    },
  );
  const frameworks = new Map<string, SnapshotRecord[]>();
  for (const record of records) {
    if (record.frameworkId === ISO_42001) continue;
    const items = evidenceOf(record);
    const list = frameworks.get(record.frameworkId) ?? [];
    list.push({
      requirementId: record.requirementId,
      status: record.status,
      applicable: record.applicable,
      justification: record.justification,
      reviewer: record.reviewer,
      owner: record.owner,
      note: record.note,
      updatedAt: record.updatedAt,
      evidenceCount: items.length,
      evidence: items,
    });
    frameworks.set(record.frameworkId, list);
  }
  return {
    scores: isoScores(iso42001),
    controls,
    frameworks: [...frameworks].map(([frameworkId, list]) => ({ frameworkId, records: list })),
  };
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
  if (await snapshotLabelTaken(em, input.orgId, input.label)) throw labelTaken();
  // Under repeatable read, the loser of a race for the label fails to serialize once the winner commits; run
  // again, it sees the winner's snapshot and answers 409 like any later request.
  return retryingTransaction(
    em,
    async (tx) => {
      const { scores, controls, frameworks } = await captureRecords(tx, input.orgId, now);
      const content: SnapshotContent = {
        snapshotId: randomUUID(),
        orgId: input.orgId,
        label: input.label,
        notes: input.notes ?? null,
        createdAt: now.toISOString(),
        ...scores,
        controls,
        frameworks,
      };
      const contentHash = contentHashOf(content);
      const inserted = await insertSnapshot(tx, {
        snapshotId: content.snapshotId,
        orgId: input.orgId,
        label: input.label,
        notes: content.notes,
        createdAt: now,
        createdBy: input.createdBy,
        score: content.score,
        counts: scores.counts,
        content,
        contentHash,
      });
      if (!inserted) throw labelTaken();
      return { ...content, contentHash };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ },
  );
}

export async function listSnapshots(
  em: Em,
  orgId: string,
  query: { limit?: number; offset?: number },
): Promise<{ snapshots: SnapshotSummary[]; total: number; limit: number; offset: number }> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const { snapshots, total } = await selectSnapshotSummaries(em, orgId, { limit, offset });
  return { snapshots, total, limit, offset };
}

async function readSnapshot(em: Em, orgId: string, snapshotId: string) {
  const row = await selectSnapshotContent<SnapshotContent>(em, orgId, snapshotId);
  if (!row) throw resourceNotFound('Snapshot', { snapshotId });
  return row;
}

/** Fails with 404 "Snapshot not found" unless the org has this snapshot. */
export async function requireSnapshot(em: Em, orgId: string, snapshotId: string): Promise<void> {
  if (!(await snapshotExists(em, orgId, snapshotId))) throw resourceNotFound('Snapshot', { snapshotId });
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
