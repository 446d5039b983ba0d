import { Migration } from '@mikro-orm/migrations';
/**
 * Crosswalk edges analysts add through the API. They join the shipped edges of `fixtures/crosswalk.json`
 * in the library; `pair_key` names the two requirements whatever the direction, so that at most one added
 * edge joins them even under concurrent requests.
 */
export class Migration20261124001000AnalystEdges extends Migration {
    name = 'Migration20261124001000AnalystEdges';
    up() {
        this.addSql(`create table cte_analyst_edges (
      edge_id uuid primary key,
      source_framework_id text not null,
      source_id text not null,
      target_framework_id text not null,
      target_id text not null,
      relationship text not null check (relationship in ('equal', 'subset', 'superset', 'intersect')),
      rationale text not null,
      reference text,
      pair_key text not null unique,
      created_by text not null,
      created_at timestamptz not null
    )`);
    }
}
//# sourceMappingURL=Migration20261124001000AnalystEdges.js.map