import { createKey } from '../../../features/auth/keys.service.js';
import { loadConfig } from '../../../platform/config.js';
import { openDatabase } from '../../../platform/db/database.js';
import { asCliErrors } from './errors.js';
/**
 * `comply keys create --admin --direct`: a platform key written straight into the database, for recovery
 * when no key can reach the API. Only when no daemon holds an embedded database.
 */
export function createRecoveryKey(name) {
    return asCliErrors(async () => {
        const db = await openDatabase(loadConfig());
        try {
            const key = await createKey(db.em(), { orgId: null, scopes: ['admin'], name });
            return { ...key, createdAt: key.createdAt.toISOString() };
        }
        finally {
            await db.close();
        }
    });
}
//# sourceMappingURL=recovery-key.js.map