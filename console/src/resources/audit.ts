import { auditLogPath } from '../../../src/clients/api-client/paths.js';
import type { AuditLog, AuditVerification } from '../api';
import { filled } from '../api';
import type { Session } from '../ui';

/**
 * The audit trail: an org's, or with `platform` the platform's own (sign-ins, failed sign-ins, sign-outs).
 * The filters as the form holds them: `from` and `to` are local date-times, an empty string means any.
 */
export type AuditFilters = {
  actorId: string;
  action: string;
  resourceType: string;
  from: string;
  to: string;
};

const logPath = (session: Session, platform: boolean, suffix = '') =>
  auditLogPath(platform ? undefined : session.orgId, suffix);

/** One page of events, newest first; `cursor` (the previous page's `nextCursor`) asks for older ones. */
export const fetchAuditLog = (
  session: Session,
  platform: boolean,
  filters: AuditFilters,
  limit: number,
  cursor?: string,
) =>
  session.api.get<AuditLog>(
    logPath(session, platform),
    filled({
      actorId: filters.actorId.trim(),
      action: filters.action.trim(),
      resourceType: filters.resourceType.trim(),
      from: filters.from ? new Date(filters.from).toISOString() : undefined,
      to: filters.to ? new Date(filters.to).toISOString() : undefined,
      limit,
      cursor,
    }),
  );

/** Walks the whole hash chain on the server: valid with its head hash, or the first event that breaks it. */
export const verifyAuditLog = (session: Session, platform: boolean) =>
  session.api.get<AuditVerification>(logPath(session, platform, '/verify'));
