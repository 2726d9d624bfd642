#!/usr/bin/env node
// The built CLI (dist/, made by `npm run build`): plain Node, no compiler at run time.
import { main } from '../dist/main.js';

process.exitCode = await main(process.argv);
