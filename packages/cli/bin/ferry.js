#!/usr/bin/env node
// The built CLI (dist/, made by `npm run build`): plain Node, no compiler at run time.
import module from 'node:module';

// Node 22.1+ keeps compiled code between runs (a no-op on Node 20): CI runs the CLI many times.
module.enableCompileCache?.();
const { main } = await import('../dist/main.js');
process.exitCode = await main(process.argv);
