/**
 * Vitest's file order: the slowest files first, by the seconds test/durations.json records for each
 * (a measured run, kept by `node scripts/test-durations.mjs <vitest JSON report>`).
 *
 * Vitest's own order is by the durations in its cache, which a clean clone (CI) does not have;
 * there it runs the largest files first, and a five-line file that drives a five-minute scale-out
 * scenario starts last, alone at the end of the run. With the longest first, the workers finish
 * together. A file the record does not know (new) is taken as taking UNKNOWN_S.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const UNKNOWN_S = 10;

function recorded(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('../durations.json', import.meta.url), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recorded();
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const of = (spec: TestSpecification) => seconds[relative(root, spec.moduleId).split('\\').join('/')] ?? UNKNOWN_S;
    // Stable: files alike in the record keep Vitest's own order.
    return base
      .map((spec, i) => ({ spec, i, s: of(spec) }))
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
