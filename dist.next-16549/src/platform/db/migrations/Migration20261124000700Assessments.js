import { Migration } from '@mikro-orm/migrations';
/**
 * Assessments of every framework: an organization's ISO/IEC 42001 control states become requirement
 * records keyed by framework, so that any requirement of any framework (built in or imported) can carry a
 * status, applicability, owner, note and evidence. Existing rows keep their values under `iso-42001`.
 * Requirement ids are no longer foreign keys to the ISO control library: the requirements module checks
 * them against the framework library, which also holds imported catalogs.
 */
export class Migration20261124000700Assessments extends Migration {
    name = 'Migration20261124000700Assessments';
    up() {
        this.addSql('alter table org_controls rename to requirement_records');
        this.addSql('alter table requirement_records rename column control_id to requirement_id');
        this.addSql('alter table requirement_records drop constraint org_controls_control_id_fkey');
        this.addSql(`alter table requirement_records add column framework_id text not null default 'iso-42001'`);
        this.addSql('alter table requirement_records alter column framework_id drop default');
        this.addSql('alter table requirement_records drop constraint org_controls_pkey');
        this.addSql('alter table requirement_records add primary key (org_id, framework_id, requirement_id)');
        // A record of another framework may hold only an applicability decision, only a status, or neither
        // (evidence and an owner without a judgement yet); ISO 42001 rows always hold both.
        this.addSql('alter table requirement_records alter column status drop not null');
        this.addSql('alter table requirement_records alter column applicable drop not null');
        this.addSql('alter table requirement_records add column owner text');
        this.addSql('alter table requirement_records add column note text');
        this.addSql('alter table control_changes rename to requirement_changes');
        this.addSql('alter table requirement_changes rename column control_id to requirement_id');
        this.addSql('alter table requirement_changes drop constraint control_changes_control_id_fkey');
        this.addSql(`alter table requirement_changes add column framework_id text not null default 'iso-42001'`);
        this.addSql('alter table requirement_changes alter column framework_id drop default');
        // A withdrawn judgement is logged as a change to null.
        this.addSql('alter table requirement_changes alter column to_value drop not null');
        this.addSql('alter table evidence rename column control_id to requirement_id');
        this.addSql('alter table evidence drop constraint evidence_control_id_fkey');
        this.addSql(`alter table evidence add column framework_id text not null default 'iso-42001'`);
        this.addSql('alter table evidence alter column framework_id drop default');
        this.addSql('drop index evidence_page_idx');
        this.addSql('drop index evidence_type_page_idx');
        this.addSql(`create index evidence_page_idx on evidence
      (org_id, framework_id, requirement_id, created_at desc, evidence_id desc)`);
        this.addSql(`create index evidence_type_page_idx on evidence
      (org_id, framework_id, requirement_id, type, created_at desc, evidence_id desc)`);
        // Daily roll-ups per framework; existing rows are ISO 42001's.
        this.addSql(`alter table compliance_rollups add column framework_id text not null default 'iso-42001'`);
        this.addSql('alter table compliance_rollups alter column framework_id drop default');
        this.addSql('alter table compliance_rollups drop constraint compliance_rollups_pkey');
        this.addSql('alter table compliance_rollups add primary key (org_id, framework_id, day)');
    }
}
//# sourceMappingURL=Migration20261124000700Assessments.js.map