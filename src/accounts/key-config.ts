/** What a key may do: the services of decisions §3, its response variant and its limits. */

export const SERVICES = ['verification', 'corrections', 'enrichment', 'eam', 'email_append', 'postal_append', 'lists'] as const;
export type Service = (typeof SERVICES)[number];

export const VARIANTS = ['safe_to_send', 'email_validation'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Services a `--trial` key gets, and its call quota unless one is given. */
export const TRIAL_SERVICES: readonly Service[] = ['verification', 'enrichment'];
export const TRIAL_QUOTA = 1_000;
export const DEFAULT_RATE_PER_SECOND = 500;

export interface KeySettings {
  services: Service[];
  variant: Variant;
  /** Enrichment fields the key may receive; null means every field. */
  fields: string[] | null;
  /** Calls the key may make in all; null means unlimited. */
  quota: number | null;
  /** Calls per second on real-time and bulk endpoints (a bulk call is one call). */
  rate: number;
  /** Records per second on real-time and bulk endpoints (a real-time call is one record); null: no such limit. */
  recordRate: number | null;
  trial: boolean;
  /** Report matches of the shared bouncer list as code 520: on unless the key opted out. */
  bouncers: boolean;
  /** May ask /v5/ev and lists for the evidence behind a verdict (`explain=true`): off unless granted. */
  evidence: boolean;
}

export interface ApiKeyRecord extends KeySettings {
  id: number;
  /** Unique operator-facing name; the KEY argument of `mailsure keys …`. */
  name: string;
  /** Hex SHA-256 of the secret key; the key itself is never stored. */
  keyHash: string;
  /** First characters of the key, to help an operator recognise it. */
  keyPrefix: string;
  /** Secret used to sign list callbacks (HMAC-SHA256). */
  webhookSecret: string;
  /** Calls counted against the quota so far. */
  callsUsed: number;
  createdAt: string;
  revokedAt: string | null;
}

export function isService(value: string): value is Service {
  return (SERVICES as readonly string[]).includes(value);
}

export function isVariant(value: string): value is Variant {
  return (VARIANTS as readonly string[]).includes(value);
}
