// Provider profiles: how each large mail provider or gateway answers probes (profiles.ts).
export { profileFor, profileForHost } from './match-profile.js';
export { DEFAULT_PROFILE, PROFILES } from './profiles.js';
export type { ProbeLimits, ProviderProfile, RcptEvidence, ReplyMapping, ReplyPattern } from './profile.js';
