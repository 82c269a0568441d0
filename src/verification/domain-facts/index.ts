// Domain facts: the domain type and clearly dangerous mailboxes (provider profiles: ../providers/).
export { classifyDomain, explainDomain, type DomainClassification, type DomainFacts, type DomainRule } from './classify-domain.js';
export { isDangerousMailbox, DANGEROUS_MAILBOXES } from './dangerous-mailboxes.js';
export { institutionType, type InstitutionType } from './suffix-rules.js';
