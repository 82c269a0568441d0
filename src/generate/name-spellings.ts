/**
 * Spellings of one first name, as a person reading a file would group them: the truth of the
 * `spelling-variant` queries (name-variant-forms.ts), and the pairs the `near-name` queries must
 * not take for two names. Written for the evaluation from common knowledge of US given names, not
 * from the matcher's rule: some (`Geoffrey`/`Jeffrey`, `Sean`/`Shawn`, `Teresa`/`Theresa`) the
 * matcher does not join, and their misses are what the row shows.
 */
export const SPELLING_GROUPS: readonly (readonly string[])[] = [
  ['Katherine', 'Catherine', 'Kathryn', 'Cathryn'],
  ['Kathleen', 'Cathleen'],
  ['Cheryl', 'Sheryl'],
  ['Curtis', 'Kurtis'],
  ['Caleb', 'Kaleb'],
  ['Ashley', 'Ashleigh', 'Ashlee'],
  ['Dylan', 'Dillon'],
  ['Brian', 'Bryan'],
  ['Steven', 'Stephen'],
  ['Sara', 'Sarah'],
  ['Megan', 'Meghan'],
  ['Kristen', 'Kristin'],
  ['Lindsay', 'Lindsey'],
  ['Christina', 'Kristina'],
  ['Christopher', 'Kristopher'],
  ['Christian', 'Kristian'],
  ['Caitlin', 'Kaitlyn', 'Katelyn'],
  ['Carl', 'Karl'],
  ['Carla', 'Karla'],
  ['Cara', 'Kara'],
  ['Carly', 'Karly'],
  ['Casey', 'Kasey'],
  ['Cody', 'Kody'],
  ['Corey', 'Cory', 'Kory'],
  ['Colby', 'Kolby'],
  ['Eric', 'Erik'],
  ['Erica', 'Erika'],
  ['Mark', 'Marc'],
  ['Philip', 'Phillip'],
  ['Alan', 'Allan', 'Allen'],
  ['Jeffrey', 'Geoffrey', 'Jeffery'],
  ['Sean', 'Shawn', 'Shaun'],
  ['Zachary', 'Zackary'],
  ['Isabel', 'Isabelle'],
  ['Jillian', 'Gillian'],
  ['Teresa', 'Theresa'],
  ['Rebecca', 'Rebekah'],
  ['Michelle', 'Michele'],
  ['Stacy', 'Stacey'],
  ['Tracy', 'Tracey'],
  ['Sonia', 'Sonya'],
  ['Aidan', 'Aiden'],
  ['Brandon', 'Branden'],
  ['Haley', 'Hailey', 'Hayley'],
  ['Madeline', 'Madeleine'],
  ['Kelly', 'Kelley'],
  ['Ana', 'Anna'],
  ['Glen', 'Glenn'],
  ['Jon', 'John'],
  ['Jordan', 'Jorden'],
  ['Allison', 'Alison'],
  ['Mathew', 'Matthew'],
  ['Natalie', 'Nathalie'],
];

const byName = new Map<string, readonly string[]>();
for (const group of SPELLING_GROUPS) for (const name of group) byName.set(name.toLowerCase(), group);

/** The other spellings of a first name (any case); empty when it has none in the table. */
export function otherSpellings(first: string): readonly string[] {
  const group = byName.get(first.toLowerCase());
  return group === undefined ? [] : group.filter((n) => n.toLowerCase() !== first.toLowerCase());
}

/** Whether two first names are spellings of one name in the table (or equal). */
export function sameSpelling(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || otherSpellings(a).some((n) => n.toLowerCase() === b.toLowerCase());
}
