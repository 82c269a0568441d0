/**
 * Reads `[name, nickname]` pairs from a nickname_pairs.json-shaped file (rows of `{ name,
 * nickname }`, carltonnorthern/nicknames, Apache-2.0). Only the evaluation script and tests call
 * it, with a path they choose: the corpus (test/fixtures/corpora) is not shipped with the service.
 */
import { readFileSync } from 'node:fs';

export function loadNicknamePairs(path: string | URL): [string, string][] {
  const rows: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(rows)) throw new Error(`${String(path)}: expected a JSON array of { name, nickname }`);
  return rows.map((row: unknown, i) => {
    const { name, nickname } = (row ?? {}) as { name?: unknown; nickname?: unknown };
    if (typeof name !== 'string' || typeof nickname !== 'string')
      throw new Error(`${String(path)}: row ${i} needs string name and nickname`);
    return [name.toLowerCase(), nickname.toLowerCase()];
  });
}
