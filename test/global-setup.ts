/**
 * Vitest global set-up: tests that run the real `mailsure` command (test/helpers/cli.ts,
 * test/integration/) run the compiled dist/, so build it first when it is missing or older than
 * src/ — `npx vitest run` then works on a fresh clone as `npm test` does.
 */
// @ts-expect-error: a plain .mjs script (Node built-ins only), without type declarations.
import { buildIfStale } from '../scripts/build.mjs';

export default function setup(): void {
  if (!(buildIfStale as () => boolean)()) throw new Error('building dist/ failed; see the output above');
}
