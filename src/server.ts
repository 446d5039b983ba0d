import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { invitationUrl } from './features/auth/auth.routes.js';
import { countKeys, createKey } from './features/auth/keys.service.js';
import { issueSetupLink } from './features/auth/sign-in.service.js';
import { seedControlLibrary } from './features/controls/library.seed.js';
import { scheduleNotifications } from './features/notifications/notifications.jobs.js';
import { scheduleComplianceRollup } from './features/scores/rollup.job.js';
import type { Config } from './platform/config.js';
import { type Database, openDatabase } from './platform/db/database.js';
import { createJobRunner } from './platform/jobs/create-job-runner.js';
import { createRedis } from './platform/jobs/redis.js';
import { Metrics } from './platform/metrics/metrics.js';
import { startMetricsServer } from './platform/metrics/metrics.server.js';

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  address: string;
  close(): Promise<void>;
}

/** Migrates, seeds, builds the app and listens; the daemon behind `comply serve` and `npm start`. */
export async function startServer(config: Readonly<Config>): Promise<RunningServer> {
  const db = await openDatabase(config);
  await seedControlLibrary(db.em());
  const log = pino({ level: config.logLevel });
  const jobs = createJobRunner(config, db, log);
  // Rate-limit counters shared across daemon instances; commands fail fast (and are skipped) if Redis is down.
  const redis = config.redisUrl
    ? createRedis(config.redisUrl, 'command', log, 'rate-limit', { commandTimeoutMs: 250 })
    : null;
  const metrics = config.metricsPort === null ? undefined : new Metrics();
  const app = await buildApp({ config, db, jobs, redis, logger: log, metrics });

  const firstStart = !config.adminKey && (await countKeys(db.em())) === 0;
  if (firstStart) {
    const key = await createKey(db.em(), { orgId: null, scopes: ['admin'], name: 'bootstrap' });
    // Printed once, on the first start of an empty database: it is the only way in.
    process.stdout.write(
      `\nCreated the first platform API key (store it now, it is not shown again):\n  ${key.key}\n\n`,
    );
  }

  const address = await app.listen({ host: config.host, port: config.port });
  const setup = firstStart ? await issueSetupLink(db.em()) : null;
  if (setup) {
    const link = invitationUrl(
      config.publicUrl ?? address.replace('://0.0.0.0', '://127.0.0.1'),
      setup.token,
    );
    process.stdout.write(
      `Open this link to create the first person, a platform administrator (once; valid 7 days):\n  ${link}\n\n`,
    );
  }
  const metricsServer = metrics
    ? await startMetricsServer(metrics, config.metricsHost, config.metricsPort as number)
    : null;
  app.log.info(
    { database: db.kind, jobs: jobs.kind, metrics: metricsServer?.url },
    `comply listening on ${address}`,
  );
  // Never fatal: with Redis down the schedule is applied once it answers.
  await scheduleComplianceRollup(jobs).catch((error) =>
    app.log.warn({ err: error }, 'could not schedule the compliance roll-up'),
  );
  await scheduleNotifications(jobs, config).catch((error) =>
    app.log.warn({ err: error }, 'could not schedule the notification jobs'),
  );
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      await metricsServer?.close();
      metrics?.close();
      await jobs.close();
      redis?.disconnect();
      await db.close();
    })();
    return closing;
  };
  return { app, db, address, close };
}
