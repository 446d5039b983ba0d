import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * Notifications: webhooks and what delivering them takes (a cursor over the org's audit trail per webhook, the
 * deliveries to make and the log of each attempt), the due-soon, overdue and needs-acceptance events emitted once
 * per item and occasion, and the daily digests sent once per member and day. Only `webhooks` is a change people
 * make (audited, its secret never reported); the others are comply's own bookkeeping.
 */
export class Migration20261128000800Notifications extends Migration {
  override name = 'Migration20261128000800Notifications';

  override up(): void {
    this.addSql(`create table webhooks (
      webhook_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      url text not null,
      events text[] not null,
      description text,
      secret text not null,
      created_by text,
      created_at timestamptz not null
    )`);
    this.addSql('create index webhooks_org on webhooks (org_id, created_at)');
    this.addSql(`create table webhook_cursors (
      webhook_id text primary key references webhooks (webhook_id) on delete cascade,
      org_id text not null,
      last_seq bigint not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index webhook_cursors_org on webhook_cursors (org_id)');
    this.addSql(`create table webhook_deliveries (
      webhook_id text not null references webhooks (webhook_id) on delete cascade,
      event_id text not null,
      org_id text not null,
      seq bigint not null,
      type text not null,
      body text not null,
      state text not null check (state in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      created_at timestamptz not null,
      finished_at timestamptz,
      primary key (webhook_id, event_id)
    )`);
    this.addSql(`create index webhook_deliveries_pending on webhook_deliveries (next_attempt_at)
      where state = 'pending'`);
    this.addSql(`create table webhook_attempts (
      webhook_id text not null references webhooks (webhook_id) on delete cascade,
      event_id text not null,
      attempt integer not null,
      type text not null,
      status_code integer,
      error text,
      duration_ms integer not null,
      outcome text not null check (outcome in ('delivered', 'retrying', 'failed')),
      at timestamptz not null,
      primary key (webhook_id, event_id, attempt)
    )`);
    this.addSql('create index webhook_attempts_log on webhook_attempts (webhook_id, at desc)');
    this.addSql(`create table notification_emissions (
      org_id text not null references orgs (org_id) on delete cascade,
      kind text not null,
      resource_id text not null,
      occasion text not null,
      threshold text not null,
      emitted_at timestamptz not null,
      primary key (org_id, kind, resource_id, occasion, threshold)
    )`);
    this.addSql(`create table notification_digests (
      org_id text not null references orgs (org_id) on delete cascade,
      user_id text not null,
      day date not null,
      items integer not null,
      sent_at timestamptz not null,
      primary key (org_id, user_id, day)
    )`);
    for (const sql of auditTriggers(AUDITED)) this.addSql(sql);
  }

  override down(): void {
    for (const sql of dropAuditTriggers(AUDITED)) this.addSql(sql);
    this.addSql(
      'drop table notification_digests, notification_emissions, webhook_attempts, webhook_deliveries, webhook_cursors, webhooks',
    );
  }
}

const AUDITED: AuditedTable = ['webhooks', 'webhook', 'webhook_id', 'secret'];
