#!/usr/bin/env node
// `npm test`: the suites (vitest for everything Node-side, jest for the React Native components,
// Playwright for the web funnel, the native screens and the release console in Debian's Chromium),
// every one run even when another fails, then ONE closing line with the totals, which is what CI reads.
//
// Three lanes run at once: vitest's files; jest and the web and native browser suites one after
// another; the release console's browser suite. A browser suite drives one Chromium, one test at a
// time, against servers of its own, so it waits far more than it computes and leaves most of the
// machine to vitest; the lanes share nothing (their own servers, ports and databases). Then the
// files that measure the server's event loop run alone, last. Each suite's output is printed whole when it
// ends, with its time; `tail -f` the log it names to watch one while it runs.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-test-summary-'));
const reportFile = (name) => path.join(dir, `${name}.json`);
const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

// Each suite names the command and how to read its counts from the report it wrote (undefined when
// it wrote none).
const vitestProject = (name, project) => {
  const file = reportFile(`vitest-${project.replace(/\W+/g, '-')}`);
  return {
    name,
    command: ['npx', 'vitest', 'run', '--project', project],
    env: { FERRY_SUMMARY_FILE: file },
    counts: () => readJson(file),
  };
};
const playwrightSuite = (name, script) => {
  const file = reportFile(script.replace(/\W+/g, '-'));
  return {
    name,
    command: ['npm', 'run', '--silent', script, '--', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: file },
    counts: () => {
      const stats = readJson(file)?.stats;
      return stats && { passed: stats.expected + stats.flaky, failed: stats.unexpected, skipped: stats.skipped };
    },
  };
};
const jestFile = reportFile('jest');

// The end-to-end project runs in .ci/run's end-to-end stage, and the measured files last (vitest.config.ts).
const vitest = vitestProject('vitest', 'ferry');
const measuredAlone = vitestProject('vitest (measured alone)', 'measured alone');
const browserAndJest = [
  {
    name: 'jest (app SDK components)',
    command: ['npm', 'run', '--silent', 'test:expo', '--', '--json', `--outputFile=${jestFile}`],
    counts: () => {
      const report = readJson(jestFile);
      return (
        report && {
          passed: report.numPassedTests,
          failed: report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0),
          skipped: report.numPendingTests + report.numTodoTests,
        }
      );
    },
  },
  playwrightSuite('playwright (web funnel)', 'test:web'),
  // The app SDK's native certificate screens, rendered by react-native-web, against the real server.
  playwrightSuite('playwright (native screens via react-native-web)', 'test:native-web'),
];
const releaseConsole = playwrightSuite('playwright (release console)', 'test:console');

// Tests that run the `ferry` and `ferry-server` bins run the built packages: bring dist/ up to date
// first (tsc -b is incremental, so this is quick when nothing changed).
process.stdout.write('\n=== build (tsc -b) ===\n');
const build = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) {
  process.stdout.write('Tests: 0 passed, 1 failed, 0 skipped\n');
  process.exit(1);
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];
let exitCode = 0;

/** Runs one suite with its output in a log, printed whole when it ends; resolves when it has. */
function run(suite) {
  const log = path.join(dir, `${suite.name.replace(/[^a-z0-9]+/gi, '-')}.log`);
  const out = fs.openSync(log, 'w');
  const started = Date.now();
  process.stdout.write(`=== ${suite.name}: started (output in ${log}) ===\n`);
  const [bin, ...args] = suite.command;
  const child = spawn(bin, args, { stdio: ['ignore', out, out], env: { ...process.env, ...suite.env } });
  return new Promise((resolve) => {
    child.on('close', (status) => {
      fs.closeSync(out);
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(`\n=== ${suite.name} (${seconds} s) ===\n${fs.readFileSync(log, 'utf8')}`);
      if (status !== 0) exitCode = 1;
      // A runner that crashed before reporting still counts as a failure.
      const counts = suite.counts() ?? { passed: 0, failed: status === 0 ? 0 : 1, skipped: 0 };
      for (const key of Object.keys(totals)) totals[key] += counts[key];
      lines.push(
        `${suite.name}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped, in ${seconds} s`,
      );
      resolve();
    });
  });
}

const began = Date.now();
const lane = async (suites) => {
  for (const suite of suites) await run(suite);
};
await Promise.all([lane([vitest]), lane(browserAndJest), lane([releaseConsole])]);
await run(measuredAlone);
fs.rmSync(dir, { recursive: true, force: true });
process.stdout.write(`\n${lines.join('\n')}\n`);
process.stdout.write(`npm test took ${Math.round((Date.now() - began) / 1000)} s\n`);
process.stdout.write(`Tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
process.exit(exitCode);
