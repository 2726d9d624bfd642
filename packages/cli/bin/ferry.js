#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so CI can call `ferry` straight from a checkout.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv);
