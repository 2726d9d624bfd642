import fs from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** Prints vitest's totals as `vitest: N passed, N failed, N skipped` and hands them to scripts/run-tests.mjs. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (module.state() === 'failed' && module.children.size === 0) failed++;
    }
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    // scripts/run-tests.mjs adds these to the other suites' counts for the one closing line.
    if (process.env.FERRY_SUMMARY_FILE)
      fs.writeFileSync(process.env.FERRY_SUMMARY_FILE, JSON.stringify({ passed, failed, skipped }));
  }
}
