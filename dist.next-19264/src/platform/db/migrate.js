import pg from 'pg';
/** Any constant shared by every comply process; it names the migration lock in pg_locks. */
const MIGRATION_LOCK_ID = 42_042_001;
/**
 * Brings the schema up to date. On PostgreSQL a daemon and its workers may start together: a session
 * advisory lock, held on a connection of its own, lets one of them migrate while the others wait and
 * then find nothing left to do.
 */
export async function migrate(orm, databaseUrl) {
    if (!databaseUrl) {
        await orm.migrator.up();
        return;
    }
    const lock = new pg.Client({ connectionString: databaseUrl });
    await lock.connect();
    try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await orm.migrator.up();
    }
    finally {
        await lock.end();
    }
}
//# sourceMappingURL=migrate.js.map