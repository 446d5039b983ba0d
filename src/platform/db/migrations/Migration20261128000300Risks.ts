import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * The AI risk register: each org's risk criteria (absent: the defaults), its risks with their treatment, and
 * the acceptances of residual risk that people sign. A risk's state is derived from these and the records, so no
 * column holds it.
 */
export class Migration20261128000300Risks extends Migration {
  override name = 'Migration20261128000300Risks';

  override up(): void {
    this.addSql(`create table risk_criteria (
      org_id text primary key references orgs (org_id) on delete cascade,
      levels jsonb not null,
      acceptable_level text not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table risks (
      risk_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      title text not null,
      description text,
      category text,
      owner text,
      system_ids text[] not null default '{}',
      likelihood integer not null check (likelihood between 1 and 5),
      impact integer not null check (impact between 1 and 5),
      residual_likelihood integer check (residual_likelihood between 1 and 5),
      residual_impact integer check (residual_impact between 1 and 5),
      treatment jsonb,
      review_date timestamptz,
      source_assessment_id text,
      source_impact integer,
      created_by text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index risks_org on risks (org_id, created_at, risk_id)');
    // An impact of an impact assessment raises at most one risk.
    this.addSql('create unique index risks_source on risks (org_id, source_assessment_id, source_impact)');
    this.addSql(`create table risk_acceptances (
      acceptance_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      risk_id text not null references risks (risk_id) on delete cascade,
      accepted_by jsonb not null,
      accepted_at timestamptz not null,
      expires_at timestamptz not null,
      justification text not null,
      state_hash text not null,
      withdrawn_at timestamptz
    )`);
    this.addSql(
      'create index risk_acceptances_risk on risk_acceptances (risk_id) where withdrawn_at is null',
    );
    for (const audited of AUDITED) for (const sql of auditTriggers(audited)) this.addSql(sql);
  }

  override down(): void {
    for (const audited of AUDITED) for (const sql of dropAuditTriggers(audited)) this.addSql(sql);
    this.addSql('drop table risk_acceptances, risks, risk_criteria');
  }
}

const AUDITED: AuditedTable[] = [
  ['risk_criteria', 'risk-criteria', 'org_id', ''],
  ['risks', 'risk', 'risk_id', ''],
  ['risk_acceptances', 'risk-acceptance', 'acceptance_id', ''],
];
