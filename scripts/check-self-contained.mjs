#!/usr/bin/env node
// Fails when a tracked file refers to a path outside the repository: a relative path (`../…`,
// in a link, an import or `new URL(…, import.meta.url)`) that climbs above the repository's root
// from the file's folder, or an absolute path into the machine the repository was written on.
// A clone must build, test and read its docs with nothing beside it.
//
//   node scripts/check-self-contained.mjs [ROOT]     (default: this repository)
//
// Files come from `git ls-files` (every file under ROOT when it is not a git work tree). Node
// built-ins only, so it runs before anything is installed.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute paths of the workstations this code grew on; nothing in a clone may point there. */
const FOREIGN_ROOTS = [/(?<![\w.-])\/work\//, /(?<![\w.-])\/home\/[\w.-]+\//, /(?<![\w.-])\/Users\/[\w.-]+\//];
/** A run of `../` (or `..\`) segments and what follows it, up to a quote, bracket or blank. */
const RELATIVE = /(?<![\w./-])((?:\.\.[/\\])+)([^\s'"`)\]>,;]*)/g;
const SKIP = /\.(png|jpe?g|gif|ico|zip|gz|sqlite|db|woff2?)$/i;

export function findViolations(root) {
  const files = listFiles(root);
  const violations = [];
  for (const file of files) {
    if (SKIP.test(file)) continue;
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // Listed by git but deleted in the work tree, or unreadable: nothing to check.
    }
    if (text.includes('\0')) continue; // binary
    text.split('\n').forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      for (const pattern of FOREIGN_ROOTS) {
        const m = pattern.exec(line);
        if (m) violations.push(`${where}: absolute path outside the repository: ${line.slice(m.index, m.index + 40).trim()}`);
      }
      for (const m of line.matchAll(RELATIVE)) {
        const target = resolve(root, dirname(file), m[1] + m[2]);
        const rel = relative(root, target);
        if (rel === '..' || rel.startsWith(`..${sep}`)) violations.push(`${where}: ${m[0]} leaves the repository`);
      }
    });
  }
  return violations;
}

function listFiles(root) {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (git.status === 0) return git.stdout.split('\0').filter(Boolean);
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'node_modules' || name === '.git' || name === 'dist') continue;
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk('');
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = findViolations(root);
  if (violations.length > 0) {
    console.error(`${violations.length} reference(s) to paths outside the repository:`);
    for (const v of violations) console.error(`  ${v}`);
    process.exit(1);
  }
  console.log('self-contained: no tracked file refers to a path outside the repository');
}
