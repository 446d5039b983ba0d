import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000500Exports extends Migration {
    name = 'Migration20261122000500Exports';
    up() {
        // Finished exports on their way from a worker to the daemon that waits for them: read once, then
        // deleted. Unlogged (a crash may lose them; the request is simply retried) and stored uncompressed
        // (zip bytes do not shrink, and large JSON would cost more to compress than to move).
        this.addSql(`create unlogged table export_results (
      result_id text primary key,
      created_at timestamptz not null,
      content_type text not null,
      file_name text not null,
      body bytea not null
    )`);
        this.addSql('alter table export_results alter column body set storage external');
        this.addSql('create index export_results_created_idx on export_results (created_at)');
    }
}
//# sourceMappingURL=Migration20261122000500Exports.js.map