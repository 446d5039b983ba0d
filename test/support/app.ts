import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { type Config, loadConfig } from '../../src/platform/config.js';
import { type Database, openDatabase } from '../../src/platform/db/database.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import type { JobRunner } from '../../src/platform/jobs/jobs.js';
import type { Scope } from '../../src/shared/vocabulary.js';
import { pgliteTemplate } from './pglite-template.js';

export type DbKind = 'pglite' | 'postgres';

/** Both databases by default; COMPLY_TEST_DBS=postgres (or pglite) narrows a local run. */
export const dbKinds: DbKind[] = (process.env.COMPLY_TEST_DBS ?? 'pglite,postgres')
  .split(',')
  .map((kind) => kind.trim() as DbKind);

export const POSTGRES_ADMIN_URL =
  process.env.COMPLY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.COMPLY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ADMIN_KEY = 'test-platform-key-0123456789abcdef';

/** The environment variable naming the migrated PostgreSQL database the global set-up made (build.global.ts). */
export const POSTGRES_TEMPLATE_ENV = 'COMPLY_TEST_POSTGRES_TEMPLATE';

/**
 * A fresh PostgreSQL database for one test file; dropped again by the returned function. It is a copy of the
 * migrated and seeded database the global set-up made, where there is one (copying is far cheaper than
 * migrating); `empty: true` asks for a database with nothing in it, for a test of migrating or restoring.
 */
export async function createScratchDatabase(
  options: { empty?: boolean } = {},
): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `comply_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : process.env[POSTGRES_TEMPLATE_ENV];
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => dropDatabase(name),
  };
}

export async function dropDatabase(name: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.end();
}

export interface TestDatabase {
  db: Database;
  config: Readonly<Config>;
  close(): Promise<void>;
}

export async function openTestDatabase(
  kind: DbKind,
  env: Record<string, string> = {},
): Promise<TestDatabase> {
  const scratch = kind === 'postgres' ? await createScratchDatabase() : null;
  const config = loadConfig({
    COMPLY_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'silent',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const db = await openDatabase(config, { inMemory: kind === 'pglite', template: pgliteTemplate() });
  await seedControlLibrary(db.em());
  return {
    db,
    config,
    close: async () => {
      await db.close();
      await scratch?.drop();
    },
  };
}

export interface TestApp {
  kind: DbKind;
  app: FastifyInstance;
  db: Database;
  config: Readonly<Config>;
  jobs: JobRunner;
  /** Sends a request as the given key (the platform key by default). */
  request(options: {
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
    url: string;
    body?: unknown;
    key?: string | null;
    headers?: Record<string, string>;
  }): Promise<LightMyRequestResponse>;
  createOrg(orgId: string, name?: string): Promise<void>;
  createKey(orgId: string, scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

/** The real app on a real database, with in-process jobs unless a runner is given. */
export async function createTestApp(
  kind: DbKind,
  options: { env?: Record<string, string>; jobs?: (db: Database) => JobRunner } = {},
): Promise<TestApp> {
  const { db, config, close } = await openTestDatabase(kind, options.env);
  const jobs = options.jobs?.(db) ?? new InProcessJobRunner(db, pino({ level: 'silent' }), { config });
  const real = await buildApp({ config, db, jobs });
  await real.ready();
  return {
    kind,
    app: real,
    db,
    config,
    jobs,
    request: ({ method, url, body, key = ADMIN_KEY, headers = {} }) =>
      real.inject({
        method,
        url,
        headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...headers },
        ...(body === undefined
          ? {}
          : typeof body === 'string'
            ? { payload: body }
            : { payload: body as object }),
      }),
    createOrg: async (orgId, name = `Org ${orgId}`) => {
      await createOrg(db.em(), { orgId, name });
    },
    createKey: async (orgId, scopes) => (await createKey(db.em(), { orgId, scopes })).key,
    close: async () => {
      await real.close();
      await jobs.close();
      await close();
    },
  };
}
