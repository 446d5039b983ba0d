import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { isSupportedInstant, parseInstant } from '../../platform/time.js';
import {
  ensureRecord,
  evidenceTotalSql,
  isExpired,
  type RecordKey,
  recordExists,
} from '../../records/records.store.js';
import { type EvidenceType, ISO_42001 } from '../../shared/vocabulary.js';
import type { CreateEvidenceBody, EvidenceSchema } from './evidence.schemas.js';
import { insertEvidence } from './evidence.store.js';

export type EvidenceView = Static<typeof EvidenceSchema>;
export type NewEvidenceInput = Static<typeof CreateEvidenceBody>;

interface EvidenceRow {
  evidenceId: string;
  controlId: string;
  type: EvidenceType;
  title: string;
  description: string | null;
  fileUrl: string | null;
  attestationId: string | null;
  effectiveDate: Date | string | null;
  expiresAt: Date | string | null;
  createdAt: Date | string;
  createdBy: string | null;
}

const EVIDENCE_COLUMNS = `evidence_id as "evidenceId", requirement_id as "controlId", type, title, description,
  file_url as "fileUrl", attestation_id as "attestationId", effective_date as "effectiveDate",
  expires_at as "expiresAt", created_at as "createdAt", created_by as "createdBy"`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const toView = (row: EvidenceRow, now: Date): EvidenceView => ({
  ...row,
  effectiveDate: iso(row.effectiveDate),
  expiresAt: iso(row.expiresAt),
  expired: isExpired(row.expiresAt, now),
  createdAt: new Date(row.createdAt).toISOString(),
});

/** The rules a schema cannot express: which types need a file, a real host, a coherent validity window. */
function checkEvidence(input: NewEvidenceInput): { effectiveDate: Date | null; expiresAt: Date | null } {
  if (input.fileUrl === undefined && (input.type === 'document' || input.type === 'link')) {
    throw invalidField('body.fileUrl', `is required for ${input.type} evidence`);
  }
  if (input.fileUrl !== undefined) {
    const url = URL.parse(input.fileUrl);
    if (!url?.hostname) throw invalidField('body.fileUrl', 'must be an absolute http(s) URL with a host');
    // A password or user name in the URL would be shown to everyone who reads the evidence or its exports.
    if (url.username || url.password)
      throw invalidField('body.fileUrl', 'must not carry a user name or password (user information)');
  }
  const effectiveDate = input.effectiveDate ? parseInstant(input.effectiveDate, 'body.effectiveDate') : null;
  const expiresAt = input.expiresAt ? parseInstant(input.expiresAt, 'body.expiresAt') : null;
  if (effectiveDate && expiresAt && expiresAt <= effectiveDate) {
    throw invalidField('body.expiresAt', 'must be after effectiveDate');
  }
  return { effectiveDate, expiresAt };
}

/**
 * Adds one evidence item to a requirement record; the roll-up columns move with it in the same transaction.
 * An ISO/IEC 42001 control must have its record ("Control not found" otherwise); a requirement of another
 * framework, which the caller has checked against the library, gets its record on its first evidence.
 */
export async function addEvidence(
  em: Em,
  input: RecordKey & { evidence: NewEvidenceInput; createdBy: string | null },
  now = new Date(),
): Promise<EvidenceView> {
  const { effectiveDate, expiresAt } = checkEvidence(input.evidence);
  const { orgId, frameworkId, requirementId, evidence } = input;
  const [evidenceId] = await em.transactional(async (tx) => {
    if (frameworkId === ISO_42001) {
      if (!(await recordExists(tx, input))) throw resourceNotFound('Control', { controlId: requirementId });
    } else {
      await ensureRecord(tx, input, now);
    }
    return insertEvidence(tx, [
      {
        orgId,
        frameworkId,
        requirementId,
        type: evidence.type,
        title: evidence.title,
        description: evidence.description ?? null,
        fileUrl: evidence.fileUrl ?? null,
        effectiveDate,
        expiresAt,
        createdAt: now,
        createdBy: input.createdBy,
      },
    ]);
  });
  return toView(
    {
      evidenceId,
      controlId: requirementId,
      type: evidence.type,
      title: evidence.title,
      description: evidence.description ?? null,
      fileUrl: evidence.fileUrl ?? null,
      attestationId: null,
      effectiveDate,
      expiresAt,
      createdAt: now,
      createdBy: input.createdBy,
    },
    now,
  );
}

export interface EvidencePage {
  evidence: EvidenceView[];
  total: number;
  limit: number;
  offset: number;
}

/** From this offset on, skipped rows are read from the index only. */
const DEEP_OFFSET = 500;

/**
 * One page, newest first (ties broken by id, so pages are stable), read by one statement: a single round
 * trip and a single snapshot for the page and its total. The page is an index scan and the totals are the
 * control's roll-up columns, so the cost is O(offset + page) whatever the table size.
 */
export async function listEvidence(
  em: Em,
  key: RecordKey,
  query: { type?: EvidenceType; limit?: number; offset?: number },
  now = new Date(),
): Promise<EvidencePage> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const { orgId, frameworkId, requirementId } = key;
  // The page names the record as values, not as references to an outer row: only then does the planner
  // see how selective they are and walk the index instead of sorting the record's whole slice.
  const match = `org_id = ? and framework_id = ? and requirement_id = ?${query.type ? ' and type = ?' : ''}`;
  const order = 'order by created_at desc, evidence_id desc';
  // Deep pages skip rows in the index alone (it holds every ordering column), then fetch only the page.
  const page =
    offset < DEEP_OFFSET
      ? `select ${EVIDENCE_COLUMNS} from evidence where ${match} ${order} limit ? offset ?`
      : `select ${EVIDENCE_COLUMNS} from evidence join (select evidence_id from evidence where ${match}
           ${order} limit ? offset ?) deep using (evidence_id)`;
  const [row] = await em.execute<{ total: number; evidence: EvidenceRow[] }[]>(
    `select ${evidenceTotalSql(query.type)} as total,
       coalesce((select json_agg(page order by page."createdAt" desc, page."evidenceId" desc) from (${page}) page),
         '[]'::json) as evidence`,
    [
      orgId,
      frameworkId,
      requirementId,
      orgId,
      frameworkId,
      requirementId,
      ...(query.type ? [query.type] : []),
      limit,
      offset,
    ],
  );
  return { evidence: row.evidence.map((item) => toView(item, now)), total: row.total, limit, offset };
}

export async function getEvidence(
  em: Em,
  key: RecordKey,
  evidenceId: string,
  now = new Date(),
): Promise<EvidenceView> {
  const [row] = await em.execute<EvidenceRow[]>(
    `select ${EVIDENCE_COLUMNS} from evidence
     where org_id = ? and framework_id = ? and requirement_id = ? and evidence_id = ?`,
    [key.orgId, key.frameworkId, key.requirementId, evidenceId],
  );
  if (!row) throw resourceNotFound('Evidence', { evidenceId });
  return toView(row, now);
}

export interface ExpiringEvidencePage {
  from: string;
  to: string;
  evidence: {
    evidenceId: string;
    frameworkId: string;
    requirementId: string;
    type: EvidenceType;
    title: string;
    expiresAt: string;
    expired: boolean;
  }[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * The org's evidence whose expiry falls in [from, to) (default: the next 30 days), soonest first, across
 * every framework, read by one statement on the partial expiry index: O(matches) for the total, O(offset +
 * page) for the page.
 */
export async function listExpiringEvidence(
  em: Em,
  orgId: string,
  query: { from?: string; to?: string; limit?: number; offset?: number },
  now = new Date(),
): Promise<ExpiringEvidencePage> {
  const from = query.from ? parseInstant(query.from, 'querystring.from') : now;
  const to = query.to ? parseInstant(query.to, 'querystring.to') : new Date(from.getTime() + 30 * 86_400_000);
  if (!query.to && !isSupportedInstant(to.getTime()))
    throw invalidField(
      'querystring.from',
      'is too late for the default 30-day window (past the year 9999); give to',
    );
  if (to < from) throw invalidField('querystring.to', 'must not be before from');
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const match = 'org_id = ? and expires_at is not null and expires_at >= ? and expires_at < ?';
  const [row] = await em.execute<
    {
      total: number;
      evidence: (Omit<ExpiringEvidencePage['evidence'][number], 'expired'> & { expiresAt: string })[];
    }[]
  >(
    `select (select count(*)::int from evidence where ${match}) as total,
       coalesce((select json_agg(page order by page."expiresAt", page."evidenceId") from (
         select evidence_id as "evidenceId", framework_id as "frameworkId", requirement_id as "requirementId", type,
           title, expires_at as "expiresAt"
         from evidence where ${match} order by expires_at, evidence_id limit ? offset ?) page), '[]'::json) as evidence`,
    [orgId, from, to, orgId, from, to, limit, offset],
  );
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    evidence: row.evidence.map((item) => ({
      ...item,
      expiresAt: new Date(item.expiresAt).toISOString(),
      expired: isExpired(item.expiresAt, now),
    })),
    total: row.total,
    limit,
    offset,
  };
}
