// Person names for identity matching: normalisation, nicknames, phonetic blocking key, similarity.
export { normalizePersonName, normalizeNamePart, nameTokens, type PersonName, type PersonNameParts } from './normalize-person-name.js';
export { NAME_SUFFIXES, generationOf } from './name-suffixes.js';
export { nameVariants, firstNamesAgree, type FirstNameAgreement } from './nicknames.js';
export { lastNamePhonetic } from './phonetic.js';
export { jaroWinkler, oneSlipApart } from './similarity.js';
export { SURNAME_PARTICLES, surnameGroups, surnameFormsAgree, type SurnameGroup, type SurnameFormAgreement } from './surname-forms.js';
export { isKnownFirstName, knownFirstNameCount } from './known-first-names.js';
export { spellingVariants } from './spelling-variants.js';
export { NAME_TITLES } from './titles.js';
