/**
 * The import graph of src/ between its top-level folders (a file directly in src/ is a node of its
 * own), read with TypeScript's own pre-processor: every static import, re-export and dynamic
 * `import()` of a relative path, type-only ones included. Tests (`*.test.ts`) are left out: they may
 * reach below the domain they test (the in-memory engine, the contract fixtures).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import between two folders, by the file that makes it and the file it reaches. */
export interface FolderEdge {
  from: string;
  to: string;
  file: string;
  imports: string;
}

export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files.sort();
}

/** `verification` for src/verification/…, `main.ts` for src/main.ts. */
export function folderOf(srcRoot: string, file: string): string {
  return relative(srcRoot, file).split(sep)[0]!;
}

/** Every import from one folder of src/ into another. */
export function folderEdges(srcRoot: string): FolderEdge[] {
  const edges: FolderEdge[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(dirname(file), fileName.replace(/\.js$/, '.ts'));
      if (!target.startsWith(srcRoot + sep)) continue;
      const from = folderOf(srcRoot, file);
      const to = folderOf(srcRoot, target);
      if (from !== to) edges.push({ from, to, file: relative(srcRoot, file), imports: relative(srcRoot, target) });
    }
  }
  return edges;
}

/**
 * The strongly connected groups of more than one folder (Tarjan), each sorted: a group is a
 * cycle, folders that reach each other through their imports.
 */
export function folderCycles(edges: readonly FolderEdge[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, new Set());
    if (!next.has(to)) next.set(to, new Set());
    next.get(from)!.add(to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node)!) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) === index.get(node)) {
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
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** A cycle's imports, one line each (`enrichment/people-store.ts → identity/match/candidate-store.ts`). */
export function describeCycle(group: readonly string[], edges: readonly FolderEdge[]): string {
  const members = new Set(group);
  const lines = edges.filter((e) => members.has(e.from) && members.has(e.to)).map((e) => `  ${e.file} → ${e.imports}`);
  return `${group.join(' ⇄ ')}:\n${[...new Set(lines)].join('\n')}`;
}
