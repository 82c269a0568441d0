#!/usr/bin/env node
// Builds src/ into dist/: TypeScript through tsc (tsconfig.build.json), then every data file the
// modules read beside themselves (`new URL('./x.txt', import.meta.url)`) copied to the same place.
// First the workspace package the CLI imports, packages/client, into its own dist/. Last the web
// dashboard (dashboard/, Preact through Vite) into dist/dashboard/, which the server serves.
//
//   node scripts/build.mjs            build now
//   node scripts/build.mjs --if-stale build only when dist/ is missing or older than its sources,
//                                     saying why (npm start, npm test and vitest call this)
//
// Node built-ins only. The build is written to a fresh folder and renamed into place, so a process
// never runs half a build and a build that fails leaves the previous one.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
/** Written last: its age is the age of the build. */
const STAMP = '.build-stamp';
/** What the build reads besides src/: a change to any of these makes dist/ stale. */
const INPUTS = [
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'scripts/build.mjs',
  'packages/client/src',
  'packages/client/package.json',
  'packages/client/tsconfig.json',
  'dashboard',
];
/** Workspace packages built before the server, each by its own tsconfig.json into its dist/. */
const PACKAGES = ['packages/client'];

function newestSource() {
  let newest = { path: '', mtimeMs: 0 };
  const visit = (path) => {
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else if (stat.mtimeMs > newest.mtimeMs) newest = { path, mtimeMs: stat.mtimeMs };
  };
  visit(join(root, 'src'));
  for (const input of INPUTS) if (existsSync(join(root, input))) visit(join(root, input));
  return newest;
}

/** Why dist/ must be rebuilt, or null when it is up to date. */
export function staleReason() {
  const stamp = join(dist, STAMP);
  if (!existsSync(stamp)) return 'dist/ is missing';
  if (!existsSync(join(dist, 'dashboard', 'index.html'))) return 'dist/dashboard/ is missing';
  for (const pkg of PACKAGES) if (!existsSync(join(root, pkg, 'dist', 'index.js'))) return `${pkg}/dist/ is missing`;
  const newest = newestSource();
  if (newest.mtimeMs > statSync(stamp).mtimeMs) return `${relative(root, newest.path)} is newer than dist/`;
  return null;
}

/** Runs tsc on `project` into `out`: written beside it, finished by `finish`, then renamed into place. */
function compile(tsc, project, out, finish = () => {}) {
  const next = `${out}.next`;
  rmSync(next, { recursive: true, force: true });
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--outDir', next], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    rmSync(next, { recursive: true, force: true });
    throw new Error(`tsc -p ${relative(root, project)} failed; see the output above`);
  }
  finish(next);
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
}

/** The dashboard through Vite's own command (dashboard/vite.config.ts) into `out`. */
function buildDashboard(out) {
  const vite = join(dirname(createRequire(join(root, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--config', join(root, 'dashboard', 'vite.config.ts'), '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build of dashboard/ failed; see the output above');
}

export function build() {
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  for (const pkg of PACKAGES) compile(tsc, join(root, pkg, 'tsconfig.json'), join(root, pkg, 'dist'));
  compile(tsc, join(root, 'tsconfig.build.json'), dist, (next) => {
    // Data files (word lists, tables, their READMEs and licences) travel with the modules.
    cpSync(join(root, 'src'), next, { recursive: true, filter: (path) => statSync(path).isDirectory() || !path.endsWith('.ts') });
    buildDashboard(join(next, 'dashboard'));
    writeFileSync(join(next, STAMP), `${new Date().toISOString()}\n`);
  });
}

/** Builds when `force` or when dist/ is stale, saying why and how long it took; false on failure. */
export function buildIfStale({ force = false } = {}) {
  const reason = force ? 'building on request' : staleReason();
  if (!reason) return true;
  const started = Date.now();
  console.error(`mailsure: ${reason}; building dist/ …`);
  try {
    build();
  } catch (error) {
    console.error(`mailsure: build failed: ${error.message}`);
    return false;
  }
  console.error(`mailsure: built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!buildIfStale({ force: !process.argv.includes('--if-stale') })) process.exit(1);
}
