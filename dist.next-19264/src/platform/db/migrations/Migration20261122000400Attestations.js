import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000400Attestations extends Migration {
    name = 'Migration20261122000400Attestations';
    up() {
        // Identifiers sort in byte order ("C"): cursors, epoch Merkle order and auditors agree on it.
        this.addSql(`create table sidecar_keys (
      org_id text not null references orgs (org_id) on delete cascade,
      key_id text collate "C" not null,
      name text,
      public_key text not null,
      fingerprint text not null,
      created_at timestamptz not null,
      revoked_at timestamptz,
      primary key (org_id, key_id)
    )`);
        // `content` is the canonical JSON the sidecar posted (without its signature); the other columns
        // are copies of it for filtering. The primary key is the idempotency guard.
        this.addSql(`create table attestations (
      org_id text not null references orgs (org_id) on delete cascade,
      attestation_id text collate "C" not null,
      level text not null check (level in ('L0', 'L2')),
      epoch_id text collate "C" not null,
      system_id text,
      attested_at timestamptz not null,
      content text not null,
      content_hash text not null,
      server_assigned_id boolean not null,
      signature_key_id text,
      signature_value text,
      posted_by text,
      received_at timestamptz not null,
      primary key (org_id, attestation_id)
    )`);
        // One index per filter shape, each in the list's order (newest first), so every page is an index range.
        this.addSql('create index attestations_time_idx on attestations (org_id, attested_at desc, attestation_id desc)');
        this.addSql('create index attestations_level_time_idx on attestations (org_id, level, attested_at desc, attestation_id desc)');
        this.addSql('create index attestations_epoch_time_idx on attestations (org_id, epoch_id, attested_at desc, attestation_id desc)');
    }
}
//# sourceMappingURL=Migration20261122000400Attestations.js.map