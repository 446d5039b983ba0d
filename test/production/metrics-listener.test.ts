import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/platform/config.js';
import { Metrics } from '../../src/platform/metrics/metrics.js';
import { startMetricsServer } from '../../src/platform/metrics/metrics.server.js';

describe('the metrics listener', () => {
  it('binds to COMPLY_METRICS_HOST, else to HOST', () => {
    const base = { COMPLY_ADMIN_KEY: 'k'.repeat(32), COMPLY_METRICS_PORT: '9464', HOST: '0.0.0.0' };
    expect(loadConfig(base).metricsHost).toBe('0.0.0.0');
    expect(loadConfig({ ...base, COMPLY_METRICS_HOST: '127.0.0.1' }).metricsHost).toBe('127.0.0.1');
  });

  it('refuses a taken port with one line naming the port, not a stack', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const metrics = new Metrics();
    try {
      const error = await startMetricsServer(metrics, '127.0.0.1', port).catch((caught: Error) => caught);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `The metrics port ${port} on 127.0.0.1 is in use (COMPLY_METRICS_PORT, COMPLY_METRICS_HOST)`,
      );
    } finally {
      metrics.close();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
