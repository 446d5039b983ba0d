import { parseInstant } from '../compliance/periods.js';
import { invalidField, resourceNotFound } from '../errors.js';
import { ensureRecord, evidenceTotalSql, isExpired, recordExists, } from '../requirements/requirements.store.js';
import { ISO_42001 } from '../vocabulary.js';
import { insertEvidence } from './evidence.store.js';
const EVIDENCE_COLUMNS = `evidence_id as "evidenceId", requirement_id as "controlId", type, title, description,
  file_url as "fileUrl", attestation_id as "attestationId", effective_date as "effectiveDate",
  expires_at as "expiresAt", created_at as "createdAt", created_by as "createdBy"`;
const iso = (value) => (value === null ? null : new Date(value).toISOString());
const toView = (row, now) => ({
    ...row,
    effectiveDate: iso(row.effectiveDate),
    expiresAt: iso(row.expiresAt),
    expired: isExpired(row.expiresAt, now),
    createdAt: new Date(row.createdAt).toISOString(),
});
/** The rules a schema cannot express: which types need a file, a real host, a coherent validity window. */
function checkEvidence(input) {
    if (input.fileUrl === undefined && (input.type === 'document' || input.type === 'link')) {
        throw invalidField('body.fileUrl', `is required for ${input.type} evidence`);
    }
    if (input.fileUrl !== undefined) {
        let host = '';
        try {
            host = new URL(input.fileUrl).hostname;
        }
        catch {
            // Reported below, like a missing host.
        }
        if (!host)
            throw invalidField('body.fileUrl', 'must be an absolute http(s) URL with a host');
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
export async function addEvidence(em, input, now = new Date()) {
    const { effectiveDate, expiresAt } = checkEvidence(input.evidence);
    const { orgId, frameworkId, requirementId, evidence } = input;
    const [evidenceId] = await em.transactional(async (tx) => {
        if (frameworkId === ISO_42001) {
            if (!(await recordExists(tx, input)))
                throw resourceNotFound('Control', { controlId: requirementId });
        }
        else {
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
    return toView({
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
    }, now);
}
/** From this offset on, skipped rows are read from the index only. */
const DEEP_OFFSET = 500;
/**
 * One page, newest first (ties broken by id, so pages are stable), read by one statement: a single round
 * trip and a single snapshot for the page and its total. The page is an index scan and the totals are the
 * control's roll-up columns, so the cost is O(offset + page) whatever the table size.
 */
export async function listEvidence(em, key, query, now = new Date()) {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const { orgId, frameworkId, requirementId } = key;
    // The page names the record as values, not as references to an outer row: only then does the planner
    // see how selective they are and walk the index instead of sorting the record's whole slice.
    const match = `org_id = ? and framework_id = ? and requirement_id = ?${query.type ? ' and type = ?' : ''}`;
    const order = 'order by created_at desc, evidence_id desc';
    // Deep pages skip rows in the index alone (it holds every ordering column), then fetch only the page.
    const page = offset < DEEP_OFFSET
        ? `select ${EVIDENCE_COLUMNS} from evidence where ${match} ${order} limit ? offset ?`
        : `select ${EVIDENCE_COLUMNS} from evidence join (select evidence_id from evidence where ${match}
           ${order} limit ? offset ?) deep using (evidence_id)`;
    const [row] = await em.execute(`select ${evidenceTotalSql(query.type)} as total,
       coalesce((select json_agg(page order by page."createdAt" desc, page."evidenceId" desc) from (${page}) page),
         '[]'::json) as evidence`, [
        orgId,
        frameworkId,
        requirementId,
        orgId,
        frameworkId,
        requirementId,
        ...(query.type ? [query.type] : []),
        limit,
        offset,
    ]);
    return { evidence: row.evidence.map((item) => toView(item, now)), total: row.total, limit, offset };
}
export async function getEvidence(em, key, evidenceId, now = new Date()) {
    const [row] = await em.execute(`select ${EVIDENCE_COLUMNS} from evidence
     where org_id = ? and framework_id = ? and requirement_id = ? and evidence_id = ?`, [key.orgId, key.frameworkId, key.requirementId, evidenceId]);
    if (!row)
        throw resourceNotFound('Evidence', { evidenceId });
    return toView(row, now);
}
//# sourceMappingURL=evidence.service.js.map