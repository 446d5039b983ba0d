/**
 * Which audit events a webhook hears of, and what it receives. The audit trail is the outbox: every change of
 * an audited table appends an event in the transaction that makes it, and the scheduled scan appends the
 * events no row stands for (an item falling due, a risk needing acceptance). A webhook event is derived from
 * one audit event, identified by it (`webhook-id` is the audit event's id, the same on every retry).
 */
import type { AuditEvent } from '../../platform/audit/audit.store.js';
import type { WebhookEventType } from '../../shared/vocabulary.js';

const changedTo = (event: AuditEvent, field: string) => event.changes?.[field]?.to;

/** The webhook event an audit event stands for, if any. */
export function webhookTypeOf(event: AuditEvent): WebhookEventType | null {
  switch (event.action) {
    // A requirement's first record of a framework is created; later ones update it.
    case 'requirement.created':
    case 'requirement.updated':
      return changedTo(event, 'status') ? 'requirement.status_changed' : null;
    case 'evidence.created':
      return 'evidence.created';
    case 'risk.created':
      return 'risk.created';
    case 'impact-assessment.updated':
      return changedTo(event, 'state') === 'approved' ? 'assessment.approved' : null;
    case 'document-version.updated':
      return changedTo(event, 'state') === 'published' ? 'document.published' : null;
    case 'finding.created':
      return 'finding.opened';
    case 'risk.needs_acceptance':
    case 'item.due_soon':
    case 'item.overdue':
      return event.action;
    default:
      return null;
  }
}

export interface WebhookBody {
  type: WebhookEventType;
  /** When the change was made (the audit event's time). */
  timestamp: string;
  data: {
    orgId: string;
    /** The event's place in the org's audit trail (`GET /orgs/{orgId}/audit-log` shows it whole). */
    seq: number;
    resource: { type: string; id: string };
    actor: AuditEvent['actor'];
    changes: NonNullable<AuditEvent['changes']>;
  };
}

/** The body a receiver gets, as the Standard Webhooks scheme shapes it: `{type, timestamp, data}`. */
export function webhookBody(orgId: string, type: WebhookEventType, event: AuditEvent): WebhookBody {
  return {
    type,
    timestamp: event.at,
    data: {
      orgId,
      seq: event.seq,
      resource: event.resource,
      actor: event.actor,
      changes: event.changes ?? {},
    },
  };
}
