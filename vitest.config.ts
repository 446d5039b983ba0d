import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/support/build.global.ts'],
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    // Each of the two workers runs file after file in one process with the modules it has loaded, instead of a
    // fresh process per file that imports the app again: a fifth less CPU for the whole suite. It holds because
    // the app keeps what it derives from its database on the app context (src/caches.ts), and a test file
    // restores what it changes of the process (fake timers, spies).
    isolate: false,
  },
});
