#!/usr/bin/env node
// The built server (dist/, made by `npm run build`): plain Node, no compiler at run time.
import module from 'node:module';

// Node 22.1+ keeps compiled code between starts (a no-op on Node 20): most of a start is loading
// modules.
module.enableCompileCache?.();
await import('../dist/main.js');
