import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/platform/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const compose = parse(fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'));
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');

/** Compose's `${NAME:-default}` interpolation, with nothing set in the environment. */
const interpolate = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');

const seconds = (duration: string) => {
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (!match) throw new Error(`unexpected duration ${duration}`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
};

/**
 * The deployment files reviewed against the compiled entry, without a container engine: the image runs
 * bin/comply (which execs node on dist/), an init forwards signals, the grace period covers an export a
 * request may wait for, and the environment given to daemon and worker is one the config accepts.
 */
describe('docker-compose.yml and the Dockerfile', () => {
  const run = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

  it('build an image that runs the compiled entry as an unprivileged user with production dependencies', () => {
    expect(run).toMatch(/^ENTRYPOINT \["\/app\/bin\/comply"\]$/m);
    expect(run).toMatch(/^USER node$/m);
    expect(run).toMatch(/npm ci --omit=dev/);
    expect(run).toMatch(/COPY --from=build \/app\/dist \.\/dist/);
    expect(run).not.toMatch(/tsx/);
    expect(fs.readFileSync(path.join(root, 'bin/comply'), 'utf8')).toMatch(
      /^exec node .*dist\/bin\/comply\.js/m,
    );
  });

  it('run the daemon and a worker behind an init, with a grace period longer than an export wait', () => {
    const defaults = loadConfig({});
    for (const [name, command] of [
      ['daemon', 'serve'],
      ['worker', 'worker'],
    ] as const) {
      const service = compose.services[name];
      expect(service.build, name).toBe('.');
      expect(service.command, name).toEqual([command]);
      expect(service.init, name).toBe(true);
      const environment = Object.fromEntries(
        Object.entries(service.environment as Record<string, string>).map(([key, value]) => [
          key,
          interpolate(String(value)),
        ]),
      );
      const config = loadConfig(environment);
      expect(config.databaseUrl, name).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(config.redisUrl, name).toBe('redis://redis:6379');
      expect(seconds(service.stop_grace_period) * 1000, name).toBeGreaterThan(config.jobWaitMs);
      expect(config.jobWaitMs).toBe(defaults.jobWaitMs);
    }
    expect(compose.services.daemon.healthcheck.test.join(' ')).toMatch(/\/readyz/);
    // The daemon is ready only once a worker runs: the worker must not wait for the daemon's health check.
    expect(compose.services.worker.depends_on.daemon?.condition).not.toBe('service_healthy');
    expect(compose.services.worker.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
  });
});
