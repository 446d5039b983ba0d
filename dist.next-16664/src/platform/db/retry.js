import { setTimeout as sleep } from 'node:timers/promises';
import { isSerializationFailure } from './transient.js';
const ATTEMPTS = 5;
const BACKOFF_MS = 10;
/**
 * Runs `work` in a transaction, and runs it again from the start when it loses a serialization conflict to
 * a concurrent transaction (repeatable read, or a deadlock): the next run reads a snapshot in which the
 * winner committed, and decides again. `work` must therefore have no effect outside the transaction. Other
 * errors, and a conflict still lost after the last attempt, are thrown as they are.
 */
export async function retryingTransaction(em, work, options = {}) {
    const { attempts = ATTEMPTS, ...transaction } = options;
    for (let attempt = 1;; attempt += 1) {
        try {
            return await em.transactional(work, transaction);
        }
        catch (error) {
            if (attempt >= attempts || !isSerializationFailure(error))
                throw error;
            // A little jitter, so that the losers of one conflict do not collide again in step.
            await sleep(BACKOFF_MS * attempt * (0.5 + Math.random()));
        }
    }
}
//# sourceMappingURL=retry.js.map