import { Migration } from '@mikro-orm/migrations';
import { type AuditedTable, auditTriggers, dropAuditTriggers } from './audit-triggers.js';

/**
 * An org's applicability profile: what it is under the EU AI Act (its roles, whether it provides
 * general-purpose AI models, uses biometrics, works in law enforcement). Saving it writes the exclusions it
 * implies into the requirement records, where the officer reviews and overrides them like any other.
 */
export class Migration20261128000900ApplicabilityProfiles extends Migration {
  override name = 'Migration20261128000900ApplicabilityProfiles';

  override up(): void {
    this.addSql(`create table applicability_profiles (
      org_id text primary key references orgs (org_id) on delete cascade,
      eu_ai_act_roles text[] not null,
      general_purpose_models boolean not null,
      biometrics boolean not null,
      law_enforcement boolean not null,
      updated_by text not null,
      updated_at timestamptz not null
    )`);
    for (const sql of auditTriggers(AUDITED)) this.addSql(sql);
  }

  override down(): void {
    for (const sql of dropAuditTriggers(AUDITED)) this.addSql(sql);
    this.addSql('drop table applicability_profiles');
  }
}

const AUDITED: AuditedTable = ['applicability_profiles', 'applicability-profile', 'org_id', 'updated_at'];
