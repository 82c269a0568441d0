// docs/architecture.md's "Layout" drawing is held to the tree: every path it names exists, so a
// newcomer who follows it finds what it says (a move that forgets the drawing fails here).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layoutPaths } from './layout-paths.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe("docs/architecture.md's layout", () => {
  it('names only paths that exist in the repository', () => {
    const named = layoutPaths(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));
    expect(named.length).toBeGreaterThan(40);
    const missing = named.filter((n) => !existsSync(join(ROOT, n.path))).map((n) => `line ${n.line}: ${n.path}`);
    expect(missing).toEqual([]);
  });

  it('reads folders, the files a folder names, and continuation lines, and skips prose', () => {
    const doc = [
      '# A',
      '## Layout',
      '```',
      'src/',
      '  core/       config.ts (env schema), errors.ts, buildApp(deps),',
      '              logger.ts and `clock.ts`; README',
      '  http/       routes/, app.ts',
      '    routes/   one file per path',
      '  main.ts     entry: dist/main.js (serve, worker)',
      'bench/        benchmarks',
      '```',
    ].join('\n');
    expect(layoutPaths(doc).map((n) => n.path)).toEqual([
      'src/',
      'src/core/',
      'src/core/config.ts',
      'src/core/errors.ts',
      'src/core/logger.ts',
      'src/core/clock.ts',
      'src/http/',
      'src/http/routes/',
      'src/http/app.ts',
      'src/http/routes/',
      'src/main.ts',
      'bench/',
    ]);
  });

  it('refuses a drawing it cannot read rather than passing it', () => {
    expect(() => layoutPaths('# A\n## Layout\n```\nsrc/\n   odd.ts  three spaces\n```\n')).toThrow('two spaces per level');
    expect(() => layoutPaths('# A\n## Layout\n```\nsrc/\n    deep.ts  under nothing\n```\n')).toThrow('indented under no folder');
    expect(() => layoutPaths('# A\nno layout here\n')).toThrow('no "## Layout" heading');
  });
});
