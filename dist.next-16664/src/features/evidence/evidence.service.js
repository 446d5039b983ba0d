import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { isSupportedInstant, parseInstant } from '../../platform/time.js';
import { ensureRecord, isExpired, recordExists } from '../../records/records.store.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { insertEvidence, selectEvidenceItem, selectEvidencePage, selectExpiringEvidence, } from './evidence.store.js';
const toView = (row, now) => ({
    evidenceId: row.evidenceId,
    controlId: row.requirementId,
    type: row.type,
    title: row.title,
    description: row.description,
    fileUrl: row.fileUrl,
    attestationId: row.attestationId,
    effectiveDate: row.effectiveDate,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    expired: isExpired(row.expiresAt, now),
});
/** The rules a schema cannot express: which types need a file, a real host, a coherent validity window. */
function checkEvidence(input) {
    if (input.fileUrl === undefined && (input.type === 'document' || input.type === 'link')) {
        throw invalidField('body.fileUrl', `is required for ${input.type} evidence`);
    }
    if (input.fileUrl !== undefined) {
        const url = URL.parse(input.fileUrl);
        if (!url?.hostname)
            throw invalidField('body.fileUrl', 'must be an absolute http(s) URL with a host');
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
        frameworkId,
        requirementId,
        type: evidence.type,
        title: evidence.title,
        description: evidence.description ?? null,
        fileUrl: evidence.fileUrl ?? null,
        attestationId: null,
        effectiveDate: effectiveDate?.toISOString() ?? null,
        expiresAt: expiresAt?.toISOString() ?? null,
        createdAt: now.toISOString(),
        createdBy: input.createdBy,
    }, now);
}
/**
 * One page, newest first (ties broken by id, so pages are stable), with its total from one statement
 * (see `selectEvidencePage`).
 */
export async function listEvidence(em, key, query, now = new Date()) {
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const page = await selectEvidencePage(em, key, { type: query.type, limit, offset });
    return { evidence: page.evidence.map((item) => toView(item, now)), total: page.total, limit, offset };
}
export async function getEvidence(em, key, evidenceId, now = new Date()) {
    const row = await selectEvidenceItem(em, key, evidenceId);
    if (!row)
        throw resourceNotFound('Evidence', { evidenceId });
    return toView(row, now);
}
/**
 * The org's evidence whose expiry falls in [from, to) (default: the next 30 days), soonest first, across
 * every framework, read by one statement on the partial expiry index: O(matches) for the total, O(offset +
 * page) for the page.
 */
export async function listExpiringEvidence(em, orgId, query, now = new Date()) {
    const from = query.from ? parseInstant(query.from, 'querystring.from') : now;
    const to = query.to ? parseInstant(query.to, 'querystring.to') : new Date(from.getTime() + 30 * 86_400_000);
    if (!query.to && !isSupportedInstant(to.getTime()))
        throw invalidField('querystring.from', 'is too late for the default 30-day window (past the year 9999); give to');
    if (to < from)
        throw invalidField('querystring.to', 'must not be before from');
    const limit = query.limit ?? 50;
    const offset = query.offset ?? 0;
    const page = await selectExpiringEvidence(em, orgId, { from, to, limit, offset });
    return {
        from: from.toISOString(),
        to: to.toISOString(),
        evidence: page.evidence.map((item) => ({ ...item, expired: isExpired(item.expiresAt, now) })),
        total: page.total,
        limit,
        offset,
    };
}
//# sourceMappingURL=evidence.service.js.map