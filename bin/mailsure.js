#!/usr/bin/env node
// The `mailsure` command: runs the JavaScript that `npm run build` compiled into dist/ (`npm start`
// and `npm test` build it when it is missing or older than src/). Plain Node, no TypeScript
// loader, so a command starts in a fraction of a second.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('mailsure: not built yet (dist/main.js is missing); run `npm run build`, or `npm start`, which builds\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main(process.argv);
