import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with one plain `N passed, N failed` line that CI can read. */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of modules) {
      let failedTests = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failedTests += 1;
        else skipped += 1;
      }
      // A file that failed to load, or whose setup hook failed, may have no failed test of its own:
      // count it as one failure so that it cannot pass silently.
      failed += failedTests === 0 && mod.state() === 'failed' ? 1 : failedTests;
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  }
}
