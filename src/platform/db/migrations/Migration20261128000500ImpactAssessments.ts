import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * Impact assessments of AI systems, each written against a template (src/features/impact-assessments/templates.ts).
 * The versions of one system's assessment of one template form a line: version 1, then one more with each
 * revision, unique in the line. Answers and impacts are JSON, validated against the template by the service.
 * Approval freezes the row: who approved it, when its review is due, the hash of its content, the system's
 * risk level, lifecycle stage and purpose at that moment (a change to them later calls for a re-assessment),
 * and the evidence items it became.
 */
export class Migration20261128000500ImpactAssessments extends Migration {
  override name = 'Migration20261128000500ImpactAssessments';

  override up(): void {
    this.addSql(`create table impact_assessments (
      assessment_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      system_id text not null references ai_systems (system_id) on delete cascade,
      template_id text not null,
      template_version integer not null,
      version integer not null check (version >= 1),
      state text not null check (state in ('draft', 'submitted', 'approved', 'superseded')),
      answers jsonb not null default '{}',
      impacts jsonb not null default '[]',
      created_by jsonb,
      submitted_by jsonb,
      submitted_at timestamptz,
      approved_by jsonb,
      approved_at timestamptz,
      review_due timestamptz,
      content_hash text,
      system_at_approval jsonb,
      evidence jsonb not null default '[]',
      superseded_by text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create unique index impact_assessments_line_version
      on impact_assessments (org_id, system_id, template_id, version)`);
    this.addSql(
      'create index impact_assessments_org_updated on impact_assessments (org_id, updated_at desc)',
    );
    this.addSql(`create index impact_assessments_review_due on impact_assessments (org_id, review_due)
      where state = 'approved'`);
    for (const sql of auditTriggers(AUDITED)) this.addSql(sql);
  }

  override down(): void {
    for (const sql of dropAuditTriggers(AUDITED)) this.addSql(sql);
    this.addSql('drop table impact_assessments');
  }
}

const AUDITED: AuditedTable = ['impact_assessments', 'impact-assessment', 'assessment_id', ''];
