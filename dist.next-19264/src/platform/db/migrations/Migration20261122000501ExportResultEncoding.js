import { Migration } from '@mikro-orm/migrations';
export class Migration20261122000501ExportResultEncoding extends Migration {
    name = 'Migration20261122000501ExportResultEncoding';
    up() {
        // Large text results travel gzipped: a fifth of the bytes to write, read and send.
        this.addSql(`alter table export_results add column content_encoding text not null default 'identity'
      check (content_encoding in ('identity', 'gzip'))`);
    }
}
//# sourceMappingURL=Migration20261122000501ExportResultEncoding.js.map