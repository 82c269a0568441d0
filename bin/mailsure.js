#!/usr/bin/env node
// The `mailsure` command. Runs the TypeScript sources through tsx's loader, so a clone needs
// no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
await main(process.argv);
