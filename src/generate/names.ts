/**
 * Names by frequency. The lists in ./data are ordered most common first; weights follow the rank
 * (rankWeights), which keeps Smith and Mary common without making rare names vanish.
 */
import type { Gender } from './records.js';
import { nameLists } from './reference-data.js';
import { rankWeights, WeightedTable, type Rng } from './random.js';

export class NameMaker {
  private readonly female: WeightedTable<string>;
  private readonly male: WeightedTable<string>;
  private readonly last: WeightedTable<string>;

  constructor() {
    const lists = nameLists();
    this.female = new WeightedTable(lists.female, rankWeights(lists.female.length));
    this.male = new WeightedTable(lists.male, rankWeights(lists.male.length));
    this.last = new WeightedTable(lists.last, rankWeights(lists.last.length));
  }

  lastName(rng: Rng): string {
    return this.last.draw(rng);
  }

  /** A first name of that gender, different from every name in `avoid` (a household's others). */
  firstName(rng: Rng, gender: Gender, avoid: readonly string[] = []): string {
    const table = gender === 'Female' ? this.female : this.male;
    let name = table.draw(rng);
    for (let tries = 0; tries < 8 && avoid.includes(name); tries++) name = table.draw(rng);
    return name;
  }

  /** A full middle name (about half of people), an initial (a sixth), or none. */
  middleName(rng: Rng, gender: Gender, first: string): string | undefined {
    const r = rng.float();
    if (r < 0.34) return undefined;
    const name = this.firstName(rng, gender, [first]);
    return r < 0.5 ? name[0] : name;
  }
}
