// Domain facts: the domain type, clearly dangerous mailboxes and provider SMTP profiles.
export { classifyDomain, explainDomain, type DomainClassification, type DomainFacts, type DomainRule } from './classify-domain.js';
export { isDangerousMailbox, DANGEROUS_MAILBOXES } from './dangerous-mailboxes.js';
export { profileFor, type ProviderProfile } from './provider-profiles.js';
export { institutionType, type InstitutionType } from './suffix-rules.js';
