import type { Database } from '../db.js';

/**
 * The control library's ids, loaded once: the library only grows (seeding at start), so an id missing
 * from the cached set is looked up again before it is called unknown.
 */
export class KnownControls {
  private ids: Promise<Set<string>> | null = null;

  constructor(private readonly db: Database) {}

  /** The ids among `controlIds` that are not in the library, in input order. */
  async unknown(controlIds: string[]): Promise<string[]> {
    const missing = (known: Set<string>) => controlIds.filter((id) => !known.has(id));
    const cached = await this.load();
    if (missing(cached).length === 0) return [];
    this.ids = null;
    return missing(await this.load());
  }

  private load(): Promise<Set<string>> {
    if (!this.ids) {
      const loading = this.db
        .em()
        .execute<{ control_id: string }[]>('select control_id from controls')
        .then((rows) => new Set(rows.map((row) => row.control_id)));
      loading.catch(() => {
        if (this.ids === loading) this.ids = null;
      });
      this.ids = loading;
    }
    return this.ids;
  }
}
