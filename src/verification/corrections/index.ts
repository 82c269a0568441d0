// Corrections (key service `corrections`): candidate addresses for a mistyped one.
export { likelyReadings, suggestCorrections, MAX_CORRECTIONS, type CorrectionContext } from './suggest.js';
export { POPULAR_DOMAINS, type PopularDomain } from './popular-domains.js';
export { misspeltLargeProvider } from './large-provider-typo.js';
