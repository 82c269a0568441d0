#!/usr/bin/env node
// Runs one TypeScript file (a benchmark or a script) with tsx's loader: `node bin/run-ts.js FILE`.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const file = process.argv[2];
if (!file) {
  console.error('usage: node bin/run-ts.js FILE.ts [args…]');
  process.exit(2);
}
// Present the script's own argv as if it had been run directly: [node, FILE, args…].
process.argv.splice(1, 1);
await import(pathToFileURL(resolve(file)).href);
