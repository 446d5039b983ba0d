import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/** Management reviews (ISO/IEC 42001 9.3): their inputs as computed when held, notes, decisions, and the frozen hash. */
export class Migration20261128000650Reviews extends Migration {
  override name = 'Migration20261128000650Reviews';

  override up(): void {
    this.addSql(`create table management_reviews (
      review_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      held_at timestamptz not null,
      attendees jsonb not null,
      period_from timestamptz not null,
      period_to timestamptz not null,
      inputs jsonb not null,
      notes jsonb not null default '{}',
      decisions jsonb not null default '[]',
      state text not null check (state in ('open', 'closed')),
      content_hash text,
      closed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index management_reviews_org on management_reviews (org_id, held_at)');
    for (const audited of AUDITED) for (const sql of auditTriggers(audited)) this.addSql(sql);
  }

  override down(): void {
    for (const audited of AUDITED) for (const sql of dropAuditTriggers(audited)) this.addSql(sql);
    this.addSql('drop table management_reviews');
  }
}

const AUDITED: AuditedTable[] = [['management_reviews', 'management-review', 'review_id', 'inputs']];
