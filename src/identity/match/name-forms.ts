/**
 * The forms a name takes in real files besides the one written in the store, each compared the
 * same way whichever side is the query:
 *
 * - the surname in another form: its particles dropped or written apart (`De La Cruz` / `Cruz`),
 *   one part of a compound or double surname (`Garcia` / `Garcia-Lopez`, a married `Jones` /
 *   `Smith-Jones`), the parts in another order (surname-forms.ts);
 * - going by the middle name: `Robert Smith`, `Robert J Smith` for John Robert Smith (and the
 *   other way round: a store that holds `Robert Smith` for a query of John Robert Smith);
 * - first and last names swapped: `Smith John` for John Smith.
 *
 * None of them is as strong as the name as written: the scorer marks a match through one with its
 * form, and the ranking lets it be the Individual only when no candidate agrees as written.
 */
import { firstNamesAgree, oneSlipApart, surnameFormsAgree } from '../name/index.js';
import type { IdentityFeatures } from './features.js';

export type NameForm = 'surname-particle' | 'surname-part' | 'middle-as-first' | 'swapped';

export type LastAgreement = 'exact' | 'typo' | 'particle' | 'part' | 'none';

type Names = Pick<IdentityFeatures, 'first' | 'middle' | 'last' | 'lastGroups'>;

/** Strongest first: as written, one slip apart, particles aside, a part of it. */
export function lastAgreement(q: Names, c: Names): LastAgreement {
  if (q.last === '' || c.last === '') return 'none';
  if (q.last === c.last) return 'exact';
  if (oneSlipApart(q.last, c.last)) return 'typo';
  const forms = surnameFormsAgree(groupsOf(q), groupsOf(c));
  return forms === 'none' ? 'none' : forms;
}

/** The groups, unless a caller changed `last` without them: then the surname as one word. */
function groupsOf(n: Names) {
  const joined = n.lastGroups.map((g) => g.full).join('');
  return joined === n.last ? n.lastGroups : [{ full: n.last, core: n.last }];
}

/**
 * One side's first name is the other's (full) middle name, exactly or by nickname, and its middle
 * name, when it gives one, agrees with the other's first name (`Robert J Smith` for John Robert
 * Smith). The caller has found that the first names disagree and the surnames agree as written.
 */
export function goesByMiddleName(q: Names, c: Names): boolean {
  return byMiddle(q, c) || byMiddle(c, q);
}

function byMiddle(a: Names, b: Names): boolean {
  if (a.first.length < 2 || b.middle.length < 2) return false;
  const agreement = firstNamesAgree(a.first, b.middle);
  if (agreement !== 'exact' && agreement !== 'nickname') return false;
  return a.middle === '' || firstNamesAgree(a.middle, b.first) !== 'none';
}

/**
 * Each side's first name is the other's last name and the other way round, both exactly or by
 * nickname and at least one exactly (`Smith John` for John Smith, `Smith Bob` for Robert Smith).
 */
export function namesSwapped(q: Names, c: Names): boolean {
  if (q.first.length < 2 || c.first.length < 2) return false;
  // At least one pair is equal once normalised: most candidates at an address stop here.
  if (q.first !== c.last && q.last !== c.first) return false;
  const one = firstNamesAgree(q.first, c.last);
  const other = firstNamesAgree(q.last, c.first);
  const strong = (a: string) => a === 'exact' || a === 'nickname';
  return strong(one) && strong(other) && (one === 'exact' || other === 'exact');
}
