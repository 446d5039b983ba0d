import { foldEvidencePieces } from './records.store.js';
/** How long after an org's first unfolded piece its pieces are folded. */
const FOLD_DELAY_MS = 1000;
/**
 * Folds an org's roll-up pieces into its records a while after ingest appended the first of them, so that
 * pieces stay few (reads sum them per record) and a busy org costs one fold a second, not one per batch.
 * Reads are exact whether or not a fold ran: a fold that fails leaves its pieces, and the next batch of the
 * org schedules another.
 */
export class EvidenceFolding {
    db;
    delayMs;
    due = new Map();
    running = new Set();
    constructor(db, delayMs = FOLD_DELAY_MS) {
        this.db = db;
        this.delayMs = delayMs;
    }
    /** The org has new pieces. */
    touched(orgId) {
        if (this.due.has(orgId))
            return;
        const timer = setTimeout(() => {
            this.due.delete(orgId);
            const run = foldEvidencePieces(this.db, orgId)
                .catch(() => undefined)
                .finally(() => this.running.delete(run));
            this.running.add(run);
        }, this.delayMs);
        timer.unref();
        this.due.set(orgId, timer);
    }
    /** Cancels the folds not started and waits for those running (shutdown); the pieces stay counted. */
    async close() {
        for (const timer of this.due.values())
            clearTimeout(timer);
        this.due.clear();
        await Promise.all(this.running);
    }
}
//# sourceMappingURL=evidence-folding.js.map