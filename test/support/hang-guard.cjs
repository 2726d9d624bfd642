// The suites' one time limit, shared by vitest.config.ts, the Playwright suites
// (test/support/browser/suite-config.ts), packages/expo/jest.config.cjs and the tests that start
// long-running processes. It is a hang guard, not a speed requirement: a test waits on events and
// readiness (a line on stdout, /readyz answering, a promise), never on how long something takes, so
// a slow or loaded machine makes a test slower and never makes it fail; only a real hang meets this
// limit. (The one test that bounds time by design, release-day.test.ts's bound on the server's CPU
// time per event-loop stretch, is not this limit; the README says why.) CommonJS so that jest's
// CommonJS config can require it too.
//
// FERRY_TEST_HANG_GUARD_MS overrides it (e.g. lower it to find a hang sooner, raise it on a very slow machine).

const DEFAULT_MS = 10 * 60_000;
const fromEnv = Number(process.env.FERRY_TEST_HANG_GUARD_MS);

/** How long any single test, hook or wait may take before it counts as hung. */
exports.HANG_GUARD_MS = Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_MS;

/**
 * For the few steps that take minutes even on a quiet machine (npm installs from a local registry,
 * building the server bundle with native modules): a multiple of the hang guard.
 */
exports.SLOW_HANG_GUARD_MS = 3 * exports.HANG_GUARD_MS;
