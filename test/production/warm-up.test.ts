import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/platform/config.js';

describe('COMPLY_WARM_UP', () => {
  it('is on unless turned off, and refuses what is not a yes or a no', () => {
    expect(loadConfig({}).warmUp).toBe(true);
    expect(loadConfig({ COMPLY_WARM_UP: '' }).warmUp).toBe(true);
    expect(loadConfig({ COMPLY_WARM_UP: 'true' }).warmUp).toBe(true);
    expect(loadConfig({ COMPLY_WARM_UP: 'false' }).warmUp).toBe(false);
    expect(loadConfig({ COMPLY_WARM_UP: '0' }).warmUp).toBe(false);
    expect(() => loadConfig({ COMPLY_WARM_UP: 'later' })).toThrow(ConfigError);
  });
});
