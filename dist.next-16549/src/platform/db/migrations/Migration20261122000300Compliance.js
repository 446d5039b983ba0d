import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000300Compliance extends Migration {
    name = 'Migration20261122000300Compliance';
    up() {
        // The state of an org at the end of each complete UTC day, kept by the compliance-rollup job so that
        // long history ranges read one row per period instead of replaying the whole change log.
        this.addSql(`create table compliance_rollups (
      org_id text not null references orgs (org_id) on delete cascade,
      day date not null,
      implemented integer not null,
      in_progress integer not null,
      not_started integer not null,
      not_applicable integer not null,
      computed_at timestamptz not null,
      primary key (org_id, day)
    )`);
        // Audit snapshots: `content` is exactly the document whose canonical JSON `content_hash` covers.
        // No foreign-key cascade: nothing may remove a snapshot, not even as a side effect.
        this.addSql(`create table compliance_snapshots (
      snapshot_id text primary key,
      org_id text not null references orgs (org_id),
      label text not null,
      notes text,
      created_at timestamptz not null,
      created_by text,
      score double precision,
      counts jsonb not null,
      content jsonb not null,
      content_hash text not null,
      unique (org_id, label)
    )`);
        this.addSql('create index compliance_snapshots_list_idx on compliance_snapshots (org_id, created_at desc, snapshot_id desc)');
        this.addSql(`create function compliance_snapshots_immutable() returns trigger language plpgsql as $$
      begin
        raise exception 'compliance snapshots are immutable' using errcode = 'object_not_in_prerequisite_state';
      end
    $$`);
        this.addSql(`create trigger compliance_snapshots_immutable before update or delete on compliance_snapshots
      for each row execute function compliance_snapshots_immutable()`);
        this.addSql(`create table ai_systems (
      system_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      name text not null,
      description text,
      owner text not null,
      purpose text not null,
      risk_level text not null check (risk_level in ('minimal', 'limited', 'high', 'unacceptable')),
      lifecycle_stage text not null
        check (lifecycle_stage in ('design', 'development', 'validation', 'deployed', 'retired')),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
        // Names are unique per org regardless of case: "Chatbot" and "chatbot" are the same system to people.
        this.addSql('create unique index ai_systems_org_name_idx on ai_systems (org_id, lower(name))');
    }
}
//# sourceMappingURL=Migration20261122000300Compliance.js.map