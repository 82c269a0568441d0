// No two top-level folders of src/ import each other, directly or round a longer loop
// (docs/architecture.md, "Who may import what"): a cycle between folders means neither can be
// read, tested or moved without the other.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeCycle, folderCycles, folderEdges, type FolderEdge } from './folder-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('the folders of src/', () => {
  it('import each other without a cycle', () => {
    const edges = folderEdges(SRC);
    expect(edges.length).toBeGreaterThan(0);
    const cycles = folderCycles(edges).map((group) => describeCycle(group, edges));
    expect(cycles, cycles.join('\n')).toEqual([]);
  });
});

describe('the folder cycle check', () => {
  const edge = (from: string, to: string): FolderEdge => ({ from, to, file: `${from}/a.ts`, imports: `${to}/b.ts` });

  it('finds a two-folder cycle and a longer one, and names the imports that make them', () => {
    const edges = [
      edge('people', 'core'),
      edge('enrichment', 'identity'),
      edge('identity', 'enrichment'),
      edge('a', 'b'),
      edge('b', 'c'),
      edge('c', 'a'),
    ];
    expect(folderCycles(edges)).toEqual([
      ['a', 'b', 'c'],
      ['enrichment', 'identity'],
    ]);
    expect(describeCycle(['enrichment', 'identity'], edges)).toBe(
      'enrichment ⇄ identity:\n  enrichment/a.ts → identity/b.ts\n  identity/a.ts → enrichment/b.ts',
    );
  });

  it('passes a graph whose arrows all point one way', () => {
    expect(
      folderCycles([edge('enrichment', 'people'), edge('identity', 'people'), edge('enrichment', 'identity'), edge('people', 'core')]),
    ).toEqual([]);
  });
});
