import path from 'node:path';
import type { Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PgliteDriver, MikroORM as PgliteMikroORM } from '@mikro-orm/pglite';
import { MikroORM as PgMikroORM, PostgreSqlDriver, type SqlEntityManager } from '@mikro-orm/postgresql';
import type { Config } from './config.js';
import { lockDataDir } from './db-lock.js';
import { migrate } from './db-migrate.js';
import { releaseDroppedConnections } from './db-pool-guard.js';
import { entities } from './entities.js';
import { migrations } from './migrations/index.js';

export type Em = SqlEntityManager;
export type Orm = PgMikroORM | PgliteMikroORM;

export interface Database {
  orm: Orm;
  kind: 'postgresql' | 'pglite';
  /** A fresh entity manager with its own identity map: one per request or job. */
  em(): Em;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PGlite only: an in-memory database (tests). */
  inMemory?: boolean;
  debug?: boolean;
}

/** Opens PostgreSQL (DATABASE_URL) or the embedded PGlite and brings the schema up to date. */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const common: Partial<Options> = {
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
        driverOptions: options.inMemory ? {} : { dataDir: path.join(config.dataDir, 'pglite') },
      });
    } catch (error) {
      release();
      throw error;
    }
  }
  await migrate(orm, config.databaseUrl);
  const db: Database = {
    orm,
    kind,
    em: () => orm.em.fork() as unknown as Em,
    async close() {
      await orm.close(true);
      release();
    },
  };
  await releaseDroppedConnections(db);
  return db;
}
