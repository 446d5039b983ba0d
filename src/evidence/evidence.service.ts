import type { Static } from 'typebox';
import { parseInstant } from '../compliance/periods.js';
import type { Em } from '../db.js';
import { invalidField, resourceNotFound } from '../errors.js';
import type { CreateEvidenceBody, EvidenceSchema } from './evidence.schemas.js';
import { type EvidenceType, insertEvidence } from './evidence.store.js';

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

const EVIDENCE_COLUMNS = `evidence_id as "evidenceId", control_id as "controlId", type, title, description,
  file_url as "fileUrl", attestation_id as "attestationId", effective_date as "effectiveDate",
  expires_at as "expiresAt", created_at as "createdAt", created_by as "createdBy"`;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** Evidence is expired from the instant `expiresAt` is reached. */
export const isExpired = (expiresAt: Date | string | null, now: Date) =>
  expiresAt !== null && new Date(expiresAt).getTime() <= now.getTime();

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
    let host = '';
    try {
      host = new URL(input.fileUrl).hostname;
    } catch {
      // Reported below, like a missing host.
    }
    if (!host) throw invalidField('body.fileUrl', 'must be an absolute http(s) URL with a host');
  }
  const effectiveDate = input.effectiveDate ? parseInstant(input.effectiveDate, 'body.effectiveDate') : null;
  const expiresAt = input.expiresAt ? parseInstant(input.expiresAt, 'body.expiresAt') : null;
  if (effectiveDate && expiresAt && expiresAt <= effectiveDate) {
    throw invalidField('body.expiresAt', 'must be after effectiveDate');
  }
  return { effectiveDate, expiresAt };
}

/** Adds one evidence item to an org's control; the roll-up columns move with it in the same transaction. */
export async function addEvidence(
  em: Em,
  input: { orgId: string; controlId: string; evidence: NewEvidenceInput; createdBy: string | null },
  now = new Date(),
): Promise<EvidenceView> {
  const { effectiveDate, expiresAt } = checkEvidence(input.evidence);
  const { orgId, controlId, evidence } = input;
  const [evidenceId] = await em.transactional(async (tx) => {
    const [control] = await tx.execute<{ found: number }[]>(
      'select 1 as found from org_controls where org_id = ? and control_id = ?',
      [orgId, controlId],
    );
    if (!control) throw resourceNotFound('Control', { controlId });
    return insertEvidence(tx, [
      {
        orgId,
        controlId,
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
      controlId,
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

/** Roll-up column holding the total of one evidence type. */
const TYPE_TOTAL: Record<EvidenceType, string> = {
  attestation: 'oc.evidence_attestation_count',
  document: 'oc.evidence_document_count',
  link: 'oc.evidence_link_count',
};

/**
 * One page, newest first (ties broken by id, so pages are stable), read by one statement: a single round
 * trip and a single snapshot for the page and its total. The page is an index scan and the totals are the
 * control's roll-up columns, so the cost is O(offset + page) whatever the table size.
 */
export async function listEvidence(
  em: Em,
  orgId: string,
  controlId: string,
  query: { type?: EvidenceType; limit?: number; offset?: number },
  now = new Date(),
): Promise<EvidencePage> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  // The page names the org and control as values, not as references to the outer row: only then does the
  // planner see how selective they are and walk the index instead of sorting the control's whole slice.
  const match = `org_id = ? and control_id = ?${query.type ? ' and type = ?' : ''}`;
  const order = 'order by created_at desc, evidence_id desc';
  // Deep pages skip rows in the index alone (it holds every ordering column), then fetch only the page.
  const page =
    offset < DEEP_OFFSET
      ? `select ${EVIDENCE_COLUMNS} from evidence where ${match} ${order} limit ? offset ?`
      : `select ${EVIDENCE_COLUMNS} from evidence join (select evidence_id from evidence where ${match}
           ${order} limit ? offset ?) deep using (evidence_id)`;
  const [control] = await em.execute<{ total: number; evidence: EvidenceRow[] }[]>(
    `select ${query.type ? TYPE_TOTAL[query.type] : 'oc.evidence_count'} as total,
       coalesce((select json_agg(page order by page."createdAt" desc, page."evidenceId" desc) from (${page}) page),
         '[]'::json) as evidence
     from org_controls oc where oc.org_id = ? and oc.control_id = ?`,
    [orgId, controlId, ...(query.type ? [query.type] : []), limit, offset, orgId, controlId],
  );
  if (!control) throw resourceNotFound('Control', { controlId });
  return { evidence: control.evidence.map((row) => toView(row, now)), total: control.total, limit, offset };
}

export async function getEvidence(
  em: Em,
  orgId: string,
  controlId: string,
  evidenceId: string,
  now = new Date(),
): Promise<EvidenceView> {
  const [row] = await em.execute<EvidenceRow[]>(
    `select ${EVIDENCE_COLUMNS} from evidence where org_id = ? and control_id = ? and evidence_id = ?`,
    [orgId, controlId, evidenceId],
  );
  if (!row) throw resourceNotFound('Evidence', { evidenceId });
  return toView(row, now);
}
