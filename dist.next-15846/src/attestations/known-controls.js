/**
 * The control library's ids, loaded once: the library only grows (seeding at start), so an id missing
 * from the cached set is looked up again before it is called unknown.
 */
export class KnownControls {
    db;
    ids = null;
    constructor(db) {
        this.db = db;
    }
    /** The ids among `controlIds` that are not in the library, in input order. */
    async unknown(controlIds) {
        const missing = (known) => controlIds.filter((id) => !known.has(id));
        const cached = await this.load();
        if (missing(cached).length === 0)
            return [];
        this.ids = null;
        return missing(await this.load());
    }
    load() {
        if (!this.ids) {
            const loading = this.db
                .em()
                .execute('select control_id from controls')
                .then((rows) => new Set(rows.map((row) => row.control_id)));
            loading.catch(() => {
                if (this.ids === loading)
                    this.ids = null;
            });
            this.ids = loading;
        }
        return this.ids;
    }
}
//# sourceMappingURL=known-controls.js.map