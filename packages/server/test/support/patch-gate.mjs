/**
 * Loaded with `--import` into a server child process (bundle-patches-crash.test.ts), before the
 * server's own modules. It holds forever the step where a bundle patch's diff begins (its private
 * temporary directory, ota/patches/bsdiff.ts), printing one line when it does: the patch is then
 * claimed and being made, and the test kills the process there. Nothing else is changed; without
 * FERRY_TEST_HOLD_PATCHES this module does nothing.
 */
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

if (process.env.FERRY_TEST_HOLD_PATCHES === '1') {
  const mkdtemp = fsp.mkdtemp.bind(fsp);
  fsp.mkdtemp = (prefix, ...rest) => {
    if (!String(prefix).includes('ferry-patch-')) return mkdtemp(prefix, ...rest);
    process.stdout.write(`${JSON.stringify({ msg: 'ferry-test: patch held' })}\n`);
    return new Promise(() => {});
  };
  // Named imports of node:fs/promises (`import { mkdtemp }`) see the change only once synced.
  syncBuiltinESMExports();
}
