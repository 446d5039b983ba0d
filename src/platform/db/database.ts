import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver, MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PgMikroORM, PostgreSqlDriver, type SqlEntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { lockDataDir } from './lock.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations/index.js';
import { releaseDroppedConnections } from './pool-guard.js';

export type Em = SqlEntityManager;
export type Orm = PgMikroORM | PgliteMikroORM;

/** Who makes the changes of the work in progress (a request), written by the audit trail's triggers. */
export interface ChangeContext {
  actor: { type: 'user' | 'key' | 'system'; id: string; name: string };
  requestId: string | null;
}

export interface Database {
  orm: Orm;
  kind: 'postgresql' | 'pglite';
  /**
   * Runs `work` (and everything it starts) as changes made by `context`: every transaction of an entity manager
   * it forks tells the database who acts (`comply.actor`, `comply.request_id`), for the audit trail. Writes
   * outside it are comply's own (jobs).
   */
  actingAs<T>(context: ChangeContext, work: () => T): T;
  /**
   * A fresh entity manager with its own identity map: one per request or job. It is forked on first use,
   * so a request answered from a cache never pays for the fork.
   */
  em(): Em;
  close(): Promise<void>;
}

/**
 * What the process keeps of one database's content between requests and jobs (a library built from its
 * rows, per-org analyses), reached through any entity manager of that database: `perDatabase(name, create)`
 * returns the accessor. The value is held by the ORM instance (MikroORM's extension registry, made on first
 * use), so it lives as long as the database handle, every request and in-process job of that handle shares
 * it, and two databases in one process (two apps in one test worker) share nothing.
 */
export function perDatabase<T>(name: string, create: () => T): (em: Em) => T {
  const extension = `comply:${name}`;
  return (em) => {
    let value = em.config.getExtension<T>(extension);
    if (value === undefined) {
      em.config.registerExtension(extension, create);
      value = em.config.getExtension<T>(extension) as T;
    }
    return value;
  };
}

/** What `autocommitted` asks of the driver's client: node-postgres' pool, or the PGlite instance. */
interface NativeClient<R> {
  query(
    query: string | { name: string; text: string; values: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: R[] }>;
}

/**
 * One statement with bind parameters on the driver's own client, committed on its own: on PostgreSQL the pool
 * (a named statement stays prepared on each pooled connection, so it is neither parsed nor planned again),
 * on PGlite the instance itself, whose queries wait for any transaction in progress to end (the ORM's query
 * layer would run the statement inside another caller's open transaction there). For hot writes that need
 * no ORM transaction.
 */
export async function autocommitted<R>(
  db: Database,
  statement: { name: string; text: string },
  values: unknown[],
): Promise<R[]> {
  const client = (await db.orm.em.getConnection().getNativeClient()) as NativeClient<R>;
  // PGlite takes no statement name and parses each time.
  const { rows } =
    db.kind === 'postgresql'
      ? await client.query({ ...statement, values })
      : await client.query(statement.text, values);
  return rows;
}

/** Whether the database answers a trivial statement (readiness). */
export function pingDatabase(db: Database): Promise<boolean> {
  return db
    .em()
    .execute('select 1')
    .then(() => true)
    .catch(() => false);
}

export interface OpenDatabaseOptions {
  /** PGlite only: an in-memory database (tests). */
  inMemory?: boolean;
  /**
   * In memory only: start from this dump of a PGlite data directory (`dumpDataDir`) instead of an empty
   * cluster, so that tests begin from one database migrated once rather than migrating each their own.
   */
  template?: Blob;
  debug?: boolean;
}

/**
 * An entity manager that forks only when something is asked of it. Forking builds a unit of work and an
 * identity map (a few microseconds); most reads are served from the caches and would throw it away.
 * Methods come bound to the fork, so they can be passed around like the fork's own. Its `config` is the
 * ORM's, which every fork shares: reading it (for what is kept per database, `perDatabase`) forks nothing.
 */
function forkOnFirstUse(fork: () => Em, config: Em['config']): Em {
  let forked: Em | undefined;
  let bound: Map<PropertyKey, unknown> | undefined;
  const target = () => {
    forked ??= fork();
    return forked;
  };
  return new Proxy({} as Em, {
    get(_, property) {
      if (property === 'config') return config;
      const em = target();
      const value = Reflect.get(em, property, em);
      if (typeof value !== 'function') return value;
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
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const common: Partial<Options> = {
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
  let orm: Orm;
  let release = () => {};
  let kind: Database['kind'];
  if (config.databaseUrl) {
    kind = 'postgresql';
    orm = await PgMikroORM.init({
      ...(common as Options<PostgreSqlDriver>),
      driver: PostgreSqlDriver,
      clientUrl: config.databaseUrl,
      pool: { min: 0, max: 10 },
    });
  } else {
    kind = 'pglite';
    if (!options.inMemory) release = lockDataDir(config.dataDir);
    try {
      orm = await PgliteMikroORM.init({
        ...(common as Options<PgliteDriver>),
        driver: PgliteDriver,
        dbName: options.inMemory ? 'memory://' : 'comply',
        // A factory: the ORM copies plain options, and a copied Blob loses its contents.
        driverOptions: options.inMemory
          ? () => (options.template ? { loadDataDir: options.template } : {})
          : { dataDir: path.join(config.dataDir, 'pglite') },
      });
    } catch (error) {
      release();
      throw error;
    }
  }
  await migrate(orm, config.databaseUrl);
  const changes = new AsyncLocalStorage<ChangeContext>();
  const db: Database = {
    orm,
    kind,
    actingAs: (context, work) => changes.run(context, work),
    em: () =>
      forkOnFirstUse(() => {
        const em = orm.em.fork() as unknown as Em;
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
      }, orm.em.config),
    async close() {
      await orm.close(true);
      release();
    },
  };
  await releaseDroppedConnections(db);
  return db;
}
