// US street addresses: Publication 28 parsing and normalisation for identity matching.
export { parseStreet, type ParsedStreet } from './parse-street.js';
export { parseUsAddress, type ParsedUsAddress } from './parse-us-address.js';
export { formatStreetLine, streetKey } from './format-street.js';
// The corpus evaluation lives in test/evaluation/address/ (it reads the test corpora).
export { numberedRoad, sameNumberedRoad, sameNumbersInName, unitIdKey, type NumberedRoad } from './street-compare.js';
