/**
 * The import graph of src/ between its top-level folders (verification/, lists/, wiring/…; a file
 * at src/ itself is its own node), read with TypeScript's own import scanner so that every import
 * counts: `import type` too, re-exports, dynamic `import()`. Tests (`*.test.ts`) are not part of the
 * graph. `cyclesOf` answers the groups of folders that reach each other (strongly connected
 * components of more than one folder, or a folder that imports itself through another).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Folder → the folders its files import, and for each such arrow one file pair that makes it. */
export type FolderGraph = Map<string, Map<string, string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function folderOf(srcDir: string, file: string): string {
  const parts = relative(srcDir, file).split(sep);
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

export function folderGraph(srcDir: string): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const file of sourceFiles(srcDir)) {
    const from = folderOf(srcDir, file);
    const arrows = graph.get(from) ?? new Map<string, string>();
    graph.set(from, arrows);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName);
      if (!target.startsWith(srcDir + sep)) continue;
      const to = folderOf(srcDir, target.replace(/\.js$/, '.ts'));
      if (to !== from && !arrows.has(to)) arrows.set(to, `${relative(srcDir, file)} → ${relative(srcDir, target)}`);
    }
  }
  return graph;
}

/** Groups of folders that import each other (Tarjan's strongly connected components), each sorted. */
export function cyclesOf(graph: FolderGraph): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    indexOf.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indexOf.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indexOf.get(next)!));
    }
    if (low.get(node) === indexOf.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!indexOf.has(node)) visit(node);
  return groups.sort((a, b) => a.join().localeCompare(b.join()));
}
