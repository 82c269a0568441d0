/**
 * The paths docs/architecture.md's "Layout" drawing names, read back from the drawing so a test can
 * hold it to the tree. The drawing is one fenced block of lines `<indent><name>  <description>`:
 * two spaces of indent per folder level, a name ending in `/` is a folder, and a line indented as
 * far as the descriptions (or further) continues the description above it. A folder's description
 * may name what it holds (`syntax.ts, dns/, codes.ts`): those are paths inside that folder. Words
 * that are not paths (`(serve, worker)`, `buildApp(deps)`, `README`) are prose and are not read.
 */

/** One path the drawing names, and the line that names it (for the failure message). */
export interface NamedPath {
  path: string;
  line: number;
}

const PATH_WORD = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*(?:\/|\.(?:ts|mjs|js|json|md|sh))$/;

/** The fenced block under the `## Layout` heading (its lines, and where the first one is in the file). */
function layoutBlock(markdown: string): { lines: string[]; first: number } {
  const all = markdown.split('\n');
  const heading = all.findIndex((l) => /^##\s+Layout\b/.test(l));
  if (heading < 0) throw new Error('docs/architecture.md has no "## Layout" heading');
  const open = all.findIndex((l, i) => i > heading && l.startsWith('```'));
  const close = all.findIndex((l, i) => i > open && l.startsWith('```'));
  if (open < 0 || close < 0) throw new Error('the "## Layout" section has no fenced drawing');
  return { lines: all.slice(open + 1, close), first: open + 2 };
}

/** The words of a description that are paths, with trailing punctuation and backticks taken off. */
function pathWords(description: string): string[] {
  return description
    .split(/\s+/)
    .map((w) => w.replace(/^[`(]+/, '').replace(/[`),;:]+$/, ''))
    .filter((w) => PATH_WORD.test(w) && !w.startsWith('.'));
}

export function layoutPaths(markdown: string): NamedPath[] {
  const { lines, first } = layoutBlock(markdown);
  const named: NamedPath[] = [];
  /** The folder open at each indent level: `parents[n]` holds the folder of an entry at level n. */
  const parents: string[] = [''];
  let descriptionColumn = Infinity;
  let describedFolder: string | undefined;
  lines.forEach((text, index) => {
    const line = first + index;
    if (text.trim() === '') return;
    const indent = text.length - text.trimStart().length;
    if (indent >= descriptionColumn) {
      if (describedFolder !== undefined) for (const w of pathWords(text)) named.push({ path: describedFolder + w, line });
      return;
    }
    const match = /^(\s*)(\S+)(\s+)(.*)$/.exec(text) ?? /^(\s*)(\S+)()()$/.exec(text)!;
    const [, lead, name, gap, description] = match;
    if (lead!.length % 2 !== 0) throw new Error(`line ${line}: an entry's indent is two spaces per level`);
    const level = lead!.length / 2;
    if (level >= parents.length) throw new Error(`line ${line}: "${name}" is indented under no folder`);
    const path = parents[level]! + name!;
    named.push({ path, line });
    parents.length = level + 1;
    if (path.endsWith('/')) parents.push(path);
    describedFolder = path.endsWith('/') ? path : undefined;
    if (description !== '') descriptionColumn = Math.min(descriptionColumn, lead!.length + name!.length + gap!.length);
    if (describedFolder !== undefined) for (const w of pathWords(description!)) named.push({ path: describedFolder + w, line });
  });
  return named;
}
