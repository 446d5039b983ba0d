import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * The management-system loop: internal audits with their findings and effectiveness checks, and the caps an open
 * major nonconformity puts on the requirements it names (kept by the records tier, which applies them).
 */
export class Migration20261128000600Management extends Migration {
  override name = 'Migration20261128000600Management';

  override up(): void {
    this.addSql(`create table requirement_caps (
      org_id text not null references orgs (org_id) on delete cascade,
      framework_id text not null,
      requirement_id text not null,
      finding_id text not null,
      primary key (org_id, framework_id, requirement_id, finding_id)
    )`);
    this.addSql('create index requirement_caps_finding on requirement_caps (org_id, finding_id)');
    this.addSql(`create table internal_audits (
      audit_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      title text not null,
      framework_ids text[] not null,
      criteria text,
      lead_auditor text not null,
      planned_start timestamptz not null,
      planned_end timestamptz not null,
      state text not null check (state in ('planned', 'in_progress', 'completed')),
      conclusion text,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index internal_audits_org on internal_audits (org_id, planned_start)');
    this.addSql(`create table findings (
      finding_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      audit_id text not null references internal_audits (audit_id) on delete cascade,
      kind text not null check (kind in ('major_nonconformity', 'minor_nonconformity', 'observation', 'opportunity')),
      requirements jsonb not null,
      description text not null,
      owner text,
      due_date timestamptz,
      root_cause text,
      corrective_action text,
      state text not null check (state in ('open', 'closed')),
      opened_at timestamptz not null,
      closed_at timestamptz,
      updated_at timestamptz not null
    )`);
    this.addSql('create index findings_org on findings (org_id, opened_at)');
    this.addSql(`create table finding_checks (
      check_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      finding_id text not null references findings (finding_id) on delete cascade,
      effective boolean not null,
      note text not null,
      evidence_ids text[] not null default '{}',
      checked_by jsonb not null,
      checked_at timestamptz not null
    )`);
    for (const audited of AUDITED) for (const sql of auditTriggers(audited)) this.addSql(sql);
  }

  override down(): void {
    for (const audited of AUDITED) for (const sql of dropAuditTriggers(audited)) this.addSql(sql);
    this.addSql('drop table finding_checks, findings, internal_audits, requirement_caps');
  }
}

const AUDITED: AuditedTable[] = [
  ['internal_audits', 'audit', 'audit_id', ''],
  ['findings', 'finding', 'finding_id', ''],
  ['finding_checks', 'finding-check', 'check_id', ''],
];
