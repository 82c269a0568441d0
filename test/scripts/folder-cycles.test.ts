// No cycle between src/'s top-level folders (issue 29): each arrow of the house points one way.
// The person model, once spread over enrichment/ and identity/ (with accounts/ reading enrichment's
// field names), has its own folder, src/people/, and the cycle it made is gone. A cycle that must
// stay for a while would be listed here with the arrows that make it, so that the test fails on any
// new cycle, on a new arrow inside a listed one, and once a listed one is gone.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cyclesOf, folderGraph, type FolderGraph } from './folder-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

const KNOWN_CYCLES: string[][] = [];
const KNOWN_ARROWS_INSIDE: string[] = [];

const graphOf = (arrows: Record<string, string[]>): FolderGraph =>
  new Map(Object.entries(arrows).map(([from, tos]) => [from, new Map(tos.map((to) => [to, `${from}/x.ts → ${to}/y.ts`]))]));

describe('the folders of src/', () => {
  it('make no cycle (none but a listed one, through no new arrow)', () => {
    const graph = folderGraph(SRC);
    expect(graph.size).toBeGreaterThan(8);
    const cycles = cyclesOf(graph);
    expect(cycles).toEqual(KNOWN_CYCLES);
    const inside = cycles.flatMap((group) =>
      group.flatMap((from) => group.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} → ${to}`)),
    );
    expect(inside.sort()).toEqual([...KNOWN_ARROWS_INSIDE].sort());
  });

  it('finds cycles of two and of more folders, and none in a graph that points one way', () => {
    expect(cyclesOf(graphOf({ a: ['b'], b: ['c'], c: [] }))).toEqual([]);
    expect(cyclesOf(graphOf({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(cyclesOf(graphOf({ a: ['b'], b: ['c'], c: ['a'], d: ['e'], e: ['d'] }))).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
  });
});
