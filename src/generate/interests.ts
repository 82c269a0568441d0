/**
 * Interests observed for a person: each category is drawn on its own with a base rate that
 * household and person traits shift (baby products with young children, luxury with affluence,
 * home improvement with owning, …). Catalog order; none at all for a few people.
 */
import { INTERESTS } from '../people/catalog.js';
import type { Household } from './household.js';
import type { Member } from './members.js';
import type { Interest } from './records.js';
import type { Rng } from './random.js';

const TECH_JOBS = new Set(['Technology']);
const BUSINESS_JOBS = new Set(['Executive/Upper Management', 'Business Owner', 'Middle Management']);

export function interestsFor(rng: Rng, m: Member, h: Household): Interest[] | undefined {
  const female = m.gender === 'Female';
  const young = m.age < 35;
  const senior = m.age >= 55;
  const rich = h.tier >= 3;
  const rate: Record<Interest, number> = {
    arts_and_crafts: female ? 0.2 : 0.05,
    automotive: female ? 0.07 : 0.28,
    baby_product_buyer: h.kids && m.age < 45 ? 0.45 : 0.01,
    beauty: female ? 0.3 : 0.03,
    blogging: young ? 0.1 : 0.04,
    books: m.education === 'Completed College' || m.education === 'Completed Graduate School' ? 0.34 : 0.22,
    business: BUSINESS_JOBS.has(m.occupation ?? '') ? 0.33 : 0.06,
    charitable_donors: (senior ? 0.22 : 0.1) * (rich ? 1.5 : 1),
    cooking: 0.22,
    discount_shopper: h.tier <= 1 ? 0.36 : h.tier === 4 ? 0.06 : 0.2,
    health_and_wellness: senior ? 0.3 : 0.2,
    high_end_brand_buyer: h.tier === 4 ? 0.35 : h.tier === 3 ? 0.12 : 0.02,
    home_and_garden: h.owner ? 0.3 : 0.08,
    home_improvement: (h.owner ? 0.25 : 0.04) * (female ? 0.8 : 1.3),
    luxury_goods: h.tier === 4 ? 0.25 : h.tier === 3 ? 0.06 : 0.01,
    magazine_buyer: senior ? 0.15 : 0.09,
    news_and_current_events: senior ? 0.28 : 0.16,
    outdoor_and_adventure: (h.setting === 'rural' ? 0.27 : 0.15) * (m.age < 45 ? 1.3 : 0.8),
    pets: 0.28,
    sports: female ? 0.15 : 0.33,
    technology: TECH_JOBS.has(m.occupation ?? '') ? 0.45 : young ? 0.2 : 0.12,
    travel: rich ? 0.28 : 0.12,
  };
  const chosen: Interest[] = [];
  for (const interest of INTERESTS) if (rng.chance(rate[interest])) chosen.push(interest);
  // A long list reads as noise: keep at most seven.
  while (chosen.length > 7) chosen.splice(rng.below(chosen.length), 1);
  return chosen.length > 0 ? chosen : undefined;
}
