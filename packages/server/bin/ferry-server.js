#!/usr/bin/env node
// The built server (dist/, made by `npm run build`): plain Node, no compiler at run time.
import '../dist/main.js';
