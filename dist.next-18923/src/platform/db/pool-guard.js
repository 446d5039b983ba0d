import { PostgreSqlConnection } from '@mikro-orm/postgresql';
/** Long after the query layer would have released a connection itself. */
const GRACE_MS = 1000;
const guarded = new WeakSet();
/**
 * Returns to the pool the connections the server dropped while a transaction held them. The query layer
 * under the ORM (Kysely) releases a transaction's connection only after a COMMIT or ROLLBACK succeeds;
 * when the server goes away mid-transaction neither can, and the connection would stay checked out
 * forever: every PostgreSQL restart would shrink the pool until the daemon stalls. A dropped connection
 * still checked out after a grace period is released with an error, which makes the pool discard it.
 */
export async function releaseDroppedConnections(db) {
    const connection = db.orm.em.getConnection();
    if (!(connection instanceof PostgreSqlConnection))
        return;
    const pool = await connection.getNativeClient();
    if (guarded.has(pool))
        return;
    guarded.add(pool);
    const checkedOut = new WeakSet();
    const watched = new WeakSet();
    pool.on('acquire', (client) => {
        checkedOut.add(client);
        if (watched.has(client))
            return;
        watched.add(client);
        client.once('end', () => {
            if (!checkedOut.has(client))
                return;
            setTimeout(() => {
                if (checkedOut.has(client))
                    client.release(new Error('Connection dropped by the server'));
            }, GRACE_MS).unref();
        });
    });
    pool.on('release', (_error, client) => {
        checkedOut.delete(client);
    });
}
//# sourceMappingURL=pool-guard.js.map