import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver, MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PgMikroORM, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { lockDataDir } from './lock.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { releaseDroppedConnections } from './pool-guard.js';
/**
 * One statement with bind parameters on the driver's own client, committed on its own: on PostgreSQL the pool
 * (a named statement stays prepared on each pooled connection, so it is neither parsed nor planned again),
 * on PGlite the instance itself, whose queries wait for any transaction in progress to end (the ORM's query
 * layer would run the statement inside another caller's open transaction there). For hot writes that need
 * no ORM transaction.
 */
export async function autocommitted(db, statement, values) {
    const client = (await db.orm.em.getConnection().getNativeClient());
    // PGlite takes no statement name and parses each time.
    const { rows } = db.kind === 'postgresql'
        ? await client.query({ ...statement, values })
        : await client.query(statement.text, values);
    return rows;
}
/** Whether the database answers a trivial statement (readiness). */
export function pingDatabase(db) {
    return db
        .em()
        .execute('select 1')
        .then(() => true)
        .catch(() => false);
}
/**
 * An entity manager that forks only when something is asked of it. Forking builds a unit of work and an
 * identity map (a few microseconds); most reads are served from the caches and would throw it away.
 * Methods come bound to the fork, so they can be passed around like the fork's own.
 */
function forkOnFirstUse(fork) {
    let forked;
    let bound;
    const target = () => {
        forked ??= fork();
        return forked;
    };
    return new Proxy({}, {
        get(_, property) {
            const em = target();
            const value = Reflect.get(em, property, em);
            if (typeof value !== 'function')
                return value;
            bound ??= new Map();
            let method = bound.get(property);
            if (method === undefined) {
                method = value.bind(em);
                bound.set(property, method);
            }
            return method;
        },
        set: (_, property, value) => Reflect.set(target(), property, value),
        has: (_, property) => Reflect.has(target(), property),
        getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    });
}
/** Opens PostgreSQL (DATABASE_URL) or the embedded PGlite and brings the schema up to date. */
export async function openDatabase(config, options = {}) {
    const common = {
        // Data access is typed SQL in store modules (README, "Conventions"): the ORM manages no entity and
        // provides connections, transactions and migrations.
        entities: [],
        discovery: { warnWhenNoEntities: false },
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
    const changes = new AsyncLocalStorage();
    const db = {
        orm,
        kind,
        actingAs: (context, work) => changes.run(context, work),
        em: () => forkOnFirstUse(() => {
            const em = orm.em.fork();
            const change = changes.getStore();
            // MikroORM sets these with set_config(…, true) as each transaction begins (a lone statement runs in a
            // short transaction of its own), so they never outlive it on a pooled connection.
            if (change) {
                em.setSessionContext({
                    variables: {
                        'comply.actor': JSON.stringify(change.actor),
                        'comply.request_id': change.requestId ?? '',
                    },
                });
            }
            return em;
        }),
        async close() {
            await orm.close(true);
            release();
        },
    };
    await releaseDroppedConnections(db);
    return db;
}
//# sourceMappingURL=database.js.map