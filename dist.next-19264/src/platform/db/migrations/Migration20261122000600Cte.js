import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000600Cte extends Migration {
    name = 'Migration20261122000600Cte';
    up() {
        // Imported OSCAL catalogs, each the converted framework as JSON; they join the built-in library.
        this.addSql(`create table cte_frameworks (
      framework_id text primary key,
      name text not null,
      content jsonb not null,
      content_hash text not null,
      source_uuid text,
      requirement_count integer not null,
      skipped_withdrawn integer not null default 0,
      imported_at timestamptz not null,
      updated_at timestamptz not null
    )`);
        // One stored vector set per embedding model; the fingerprint covers the model and every embedded text.
        this.addSql(`create table cte_embedding_sets (
      model text primary key,
      fingerprint text not null,
      dimension integer not null,
      vector_count integer not null,
      computed_at timestamptz not null
    )`);
        this.addSql(`create table cte_embeddings (
      model text not null references cte_embedding_sets (model) on delete cascade,
      position integer not null,
      framework_id text not null,
      requirement_id text not null,
      vector bytea not null,
      primary key (model, position)
    )`);
    }
}
//# sourceMappingURL=Migration20261122000600Cte.js.map