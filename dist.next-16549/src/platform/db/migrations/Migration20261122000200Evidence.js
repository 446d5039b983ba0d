import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000200Evidence extends Migration {
    name = 'Migration20261122000200Evidence';
    up() {
        this.addSql(`create table evidence (
      evidence_id text primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      control_id text not null references controls (control_id),
      type text not null check (type in ('attestation', 'document', 'link')),
      title text not null,
      description text,
      file_url text,
      attestation_id text,
      effective_date timestamptz,
      expires_at timestamptz,
      created_at timestamptz not null,
      created_by text
    )`);
        // Pages are read newest first per control, optionally per type: both orders are index scans.
        this.addSql('create index evidence_page_idx on evidence (org_id, control_id, created_at desc, evidence_id desc)');
        this.addSql('create index evidence_type_page_idx on evidence (org_id, control_id, type, created_at desc, evidence_id desc)');
        this.addSql('create index evidence_attestation_idx on evidence (attestation_id) where attestation_id is not null');
        // Per-control roll-up kept in step with inserts, so lists never count the evidence table.
        this.addSql('alter table org_controls add column evidence_count integer not null default 0');
        this.addSql('alter table org_controls add column evidence_never_expires boolean not null default false');
        this.addSql('alter table org_controls add column evidence_expires_max timestamptz');
    }
}
//# sourceMappingURL=Migration20261122000200Evidence.js.map