#!/usr/bin/env node
// Installs the dependencies when node_modules is missing or older than package-lock.json, then
// builds dist/ when it is missing or older than src/ (scripts/build.mjs), so that `npm start` and
// `npm test` work on a fresh clone by themselves. Node built-ins only: it runs before anything is
// installed.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lock = join(root, 'package-lock.json');
// npm writes this file at the end of every install, so its age tells when the tree was last synced.
const marker = join(root, 'node_modules', '.package-lock.json');

function stale() {
  if (!existsSync(marker)) return 'node_modules is missing';
  if (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
    return 'package-lock.json is newer than node_modules';
  }
  return null;
}

const reason = stale();
if (reason) {
  console.error(`mailsure: ${reason}; running npm ci …`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('mailsure: npm ci failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}

if (!buildIfStale()) process.exit(1);
