// Corrections for one address: ranked candidate addresses (at most three), each valid by
// `classifySyntax`, never the input itself. Candidate generation only: the verification pipeline
// checks every candidate and offers the deliverable ones (api-reference `email_corrections`).
//
// The bar is a correction that is much likelier than the address as typed. A valid address at a
// popular, caller-known or known-real domain gets nothing; a valid address elsewhere gets only a
// domain fix towards a popular domain (`gmial.com`) or a repeated TLD (`example.com.com`), or one
// of the two near-certain username slips (see repair-syntax.ts).

import { classifySyntax, MAX_INPUT_LENGTH } from '../syntax.js';
import { domainFixes, isPopularDomain } from './domain-fixes.js';
import { score, sortedByRank, type Ranked } from './rank.js';
import { repairInvalid, repairValidLocal, type Repaired } from './repair-syntax.js';
import { suffixWeight } from './suffixes.js';

export interface CorrectionContext {
  /** Domains the caller knows to receive mail: never corrected, and `x.co` → `x.com` when x.com is here. */
  knownDomains?: ReadonlySet<string>;
}

export const MAX_CORRECTIONS = 3;
/**
 * Alternatives are offered only while they stay nearly as likely as the best: `example.con` gets
 * example.com, not also example.cn and example.co.
 */
const MAX_SCORE_GAP = 0.5;

const NONE: ReadonlySet<string> = new Set();

interface Candidate extends Ranked {
  local: string;
}

export function suggestCorrections(input: string, context: CorrectionContext = {}): string[] {
  return corrections(input, context, true);
}

/**
 * What the writer most likely meant, best first, judged by the typing alone: suggestCorrections
 * without the mailbox providers' username rules. Those rules say whether the meant address can
 * exist (`john@gmial.com` meant john@gmail.com, which Gmail could never have issued: code 125),
 * not what was meant, so suggestCorrections offers nothing there. This is what a typo corpus
 * scores, as it scores mailcheck and ZooTools; it is never offered to callers.
 */
export function likelyReadings(input: string, context: CorrectionContext = {}): string[] {
  return corrections(input, context, false);
}

function corrections(input: string, context: CorrectionContext, providerRules: boolean): string[] {
  if (typeof input !== 'string' || input.length === 0 || input.length > MAX_INPUT_LENGTH) return [];
  const known = context.knownDomains ?? NONE;
  const verdict = classifySyntax(input);
  let variants: Repaired[];
  if (verdict.ok) {
    const local = repairValidLocal(verdict.local);
    variants = [{ local, domain: verdict.domain, cost: local === verdict.local ? 0 : 0.1 }];
  } else {
    variants = repairInvalid(input);
  }

  const candidates: Candidate[] = [];
  for (const v of variants) {
    const fixes = domainFixes(v.domain, known);
    for (const f of fixes) candidates.push({ ...f, local: v.local, cost: v.cost + f.cost });
    if (v.cost > 0) {
      const popular = isPopularDomain(v.domain) || known.has(v.domain);
      // The domain as typed ranks after any fix of it: a fix exists only when it looks wrong.
      const tier = fixes.length > 0 ? 2 : popular ? 0 : 1;
      candidates.push({ local: v.local, domain: v.domain, cost: v.cost, tier, weight: suffixWeight(v.domain) });
    }
  }
  const ranked = sortedByRank(candidates);
  const first = ranked[0];
  if (first === undefined) return [];

  const self = verdict.ok ? verdict.address : null;
  const out: string[] = [];
  // Variants of one input often reach the same address; its verdict was final the first time.
  const tried: string[] = [];
  const limit = score(first) + MAX_SCORE_GAP;
  for (const c of ranked) {
    if ((first.tier === 0 && c.tier !== 0) || score(c) > limit) break;
    const address = `${c.local}@${c.domain}`;
    if (tried.includes(address)) continue;
    tried.push(address);
    const checked = classifySyntax(address);
    let standardized = checked.ok ? checked.address : undefined;
    if (!checked.ok && checked.rule === 'provider-username') {
      // The likeliest reading is a provider address this username cannot have (`test@gmail.com`:
      // Gmail needs six characters). A lesser reading (ymail.com) is not what was meant either.
      if (providerRules) break;
      standardized = address.toLowerCase();
    }
    if (standardized === undefined || standardized === self || out.includes(standardized)) continue;
    out.push(standardized);
    if (out.length === MAX_CORRECTIONS) break;
  }
  return out;
}
