// Migration 0011's frozen copy of the demo dataset: 0011-demo-data.txt, one line per demo person
// (format in 0011-demo-dataset.ts). Written once from the generator; never edit. Read on first use.
import { readFileSync } from 'node:fs';

let text: string | undefined;

/** The frozen data as 0011 read it: a newline, then the file's lines (its digest is pinned in the test). */
export function demoData0011(): string {
  text ??= `\n${readFileSync(new URL('./0011-demo-data.txt', import.meta.url), 'utf8')}`;
  return text;
}
