// scripts/check-self-contained.mjs (run by .ci/run): fails on a path outside the repository, passes
// on this repository. The offending paths are assembled at run time so this file passes the check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../scripts/check-self-contained.mjs', import.meta.url));
const UP = '..' + '/';
const dirs: string[] = [];

function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mailsure-self-contained-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  return spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('check-self-contained', () => {
  it('fails, naming file and line, on links, URLs and absolute paths that leave the repository', () => {
    const root = repo({
      'README.md': `# x\n\nSee [the spec](${UP}shared/spec/api.md).\n`,
      'src/a/reader.ts': `const url = new URL('${UP}${UP}${UP}shared/corpora/x.json', import.meta.url);\n`,
      'bench/b.ts': `const f = '${'/' + 'work' + '/'}shared/corpora/x.json';\n`,
    });
    const result = check(root);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('README.md:3');
    expect(result.stderr).toContain('src/a/reader.ts:1');
    expect(result.stderr).toContain('bench/b.ts:1: absolute path outside the repository');
  });

  it('passes relative paths that stay inside the repository', () => {
    const root = repo({
      'docs/a.md': `[readme](${UP}README.md) and [code](${UP}src/x.ts)\n`,
      'src/a/b/c.ts': `const data = new URL('${UP}${UP}data/x.txt', import.meta.url);\n`,
      'README.md': 'plain\n',
    });
    const result = check(root);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('passes on this repository', () => {
    const result = check(fileURLToPath(new URL('../..', import.meta.url)));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
