import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000100Foundation extends Migration {
    name = 'Migration20261122000100Foundation';
    up() {
        this.addSql(`create table orgs (
      org_id text primary key,
      name text not null,
      created_at timestamptz not null default now()
    )`);
        this.addSql(`create table api_keys (
      key_id text primary key,
      org_id text references orgs (org_id) on delete cascade,
      name text,
      scopes text[] not null,
      key_hash text not null unique,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`);
        this.addSql('create index api_keys_org_idx on api_keys (org_id)');
        this.addSql(`create table controls (
      control_id text primary key,
      domain text not null,
      domain_title text not null,
      title text not null,
      description text not null,
      sort_order integer not null,
      search_vector tsvector generated always as (
        setweight(to_tsvector('simple', control_id), 'A') ||
        setweight(to_tsvector('english', title), 'A') ||
        setweight(to_tsvector('english', description), 'B')
      ) stored
    )`);
        this.addSql('create index controls_search_idx on controls using gin (search_vector)');
        this.addSql('create index controls_domain_idx on controls (domain, sort_order)');
        this.addSql(`create table org_controls (
      org_id text not null references orgs (org_id) on delete cascade,
      control_id text not null references controls (control_id),
      status text not null check (status in ('not_started', 'in_progress', 'implemented')),
      applicable boolean not null,
      justification text,
      reviewer text,
      updated_at timestamptz not null,
      primary key (org_id, control_id)
    )`);
        this.addSql(`create table control_changes (
      id bigserial primary key,
      org_id text not null references orgs (org_id) on delete cascade,
      control_id text not null references controls (control_id),
      field text not null check (field in ('status', 'applicable')),
      from_value text,
      to_value text not null,
      actor text not null,
      key_id text,
      note text,
      changed_at timestamptz not null
    )`);
        this.addSql('create index control_changes_org_time_idx on control_changes (org_id, changed_at, id)');
    }
}
//# sourceMappingURL=Migration20261122000100Foundation.js.map