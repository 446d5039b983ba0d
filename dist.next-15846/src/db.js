import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver, MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PgMikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { lockDataDir } from './db-lock.js';
import { migrate } from './db-migrate.js';
import { releaseDroppedConnections } from './db-pool-guard.js';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';
/** Opens PostgreSQL (DATABASE_URL) or the embedded PGlite and brings the schema up to date. */
export async function openDatabase(config, options = {}) {
    const common = {
        entities,
        extensions: [Migrator],
        migrations: {
            migrationsList: migrations,
            transactional: true,
            allOrNothing: true,
            silent: true,
            snapshot: false,
        },
        debug: options.debug ?? false,
        allowGlobalContext: false,
    };
    let orm;
    let release = () => { };
    let kind;
    if (config.databaseUrl) {
        kind = 'postgresql';
        orm = await PgMikroORM.init({
            ...common,
            driver: PostgreSqlDriver,
            clientUrl: config.databaseUrl,
            pool: { min: 0, max: 10 },
        });
    }
    else {
        kind = 'pglite';
        if (!options.inMemory)
            release = lockDataDir(config.dataDir);
        try {
            orm = await PgliteMikroORM.init({
                ...common,
                driver: PgliteDriver,
                dbName: options.inMemory ? 'memory://' : 'comply',
                driverOptions: options.inMemory ? {} : { dataDir: path.join(config.dataDir, 'pglite') },
            });
        }
        catch (error) {
            release();
            throw error;
        }
    }
    await migrate(orm, config.databaseUrl);
    const db = {
        orm,
        kind,
        em: () => orm.em.fork(),
        async close() {
            await orm.close(true);
            release();
        },
    };
    await releaseDroppedConnections(db);
    return db;
}
//# sourceMappingURL=db.js.map