import { remember, settled } from '../../platform/ready.js';
import { selectControlIds } from '../controls/controls.store.js';
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
    /** The ids among `controlIds` that are not in the library, in input order: at once when all are known. */
    unknown(controlIds) {
        const loaded = this.ids && settled(this.ids);
        if (loaded instanceof Set && controlIds.every((id) => loaded.has(id)))
            return [];
        const missing = (known) => controlIds.filter((id) => !known.has(id));
        return this.load().then((cached) => {
            if (missing(cached).length === 0)
                return [];
            this.ids = null;
            return this.load().then(missing);
        });
    }
    load() {
        if (!this.ids) {
            const loading = remember(selectControlIds(this.db.em()));
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