/**
 * Operator actions on keys (the `mailsure keys …` commands and the demo key): parse and check
 * settings, mint the secret, and hand the store only hashes.
 */
import { canonicalFieldName } from '../people/field-names.js';
import type { ApiKeyRecord, KeySettings, Service, Variant } from './key-config.js';
import { DEFAULT_RATE_PER_SECOND, isService, isVariant, SERVICES, TRIAL_QUOTA, TRIAL_SERVICES } from './key-config.js';
import { displayPrefix, generateApiKey, generateWebhookSecret, hashApiKey } from './api-key.js';
import type { KeyStore } from './key-store.js';

/** Settings as an operator types them; every value optional. */
export interface KeyOptions {
  services?: string;
  variant?: string;
  fields?: string;
  quota?: string;
  rate?: string;
  /** Records a second, or `none`. */
  recordRate?: string;
  trial?: boolean;
  bouncers?: boolean;
  /** May ask for a verdict's evidence (`explain=true`). */
  evidence?: boolean;
}

export class KeyOptionError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'KeyOptionError';
  }
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Parses the options that were given; absent ones stay absent (for `update`). */
export function parseKeyOptions(options: KeyOptions): Partial<KeySettings> {
  const problems: string[] = [];
  const out: Partial<KeySettings> = {};
  if (options.services !== undefined) {
    const list = splitList(options.services);
    const unknown = list.filter((s) => s !== 'all' && !isService(s));
    if (unknown.length) problems.push(`unknown service ${unknown.join(', ')} (known: ${SERVICES.join(', ')}, all)`);
    out.services = list.includes('all') ? [...SERVICES] : [...new Set(list as Service[])];
  }
  if (options.variant !== undefined) {
    if (isVariant(options.variant)) out.variant = options.variant as Variant;
    else problems.push('variant must be safe_to_send or email_validation');
  }
  if (options.fields !== undefined) {
    const list = splitList(options.fields);
    if (list.includes('all')) out.fields = null;
    else {
      const unknown = list.filter((f) => canonicalFieldName(f) === undefined);
      if (unknown.length) problems.push(`unknown field ${unknown.join(', ')}`);
      out.fields = [...new Set(list.map((f) => canonicalFieldName(f) ?? f))];
    }
  }
  if (options.quota !== undefined) {
    if (options.quota === 'none') out.quota = null;
    else if (/^\d{1,15}$/.test(options.quota)) out.quota = Number(options.quota);
    else problems.push('quota must be a whole number of calls, or none');
  }
  if (options.rate !== undefined) {
    if (/^\d{1,9}$/.test(options.rate) && Number(options.rate) > 0) out.rate = Number(options.rate);
    else problems.push('rate must be a whole number of calls per second, at least 1');
  }
  if (options.recordRate !== undefined) {
    if (options.recordRate === 'none') out.recordRate = null;
    else if (/^\d{1,9}$/.test(options.recordRate) && Number(options.recordRate) > 0) out.recordRate = Number(options.recordRate);
    else problems.push('record rate must be a whole number of records per second, at least 1, or none');
  }
  if (options.trial !== undefined) out.trial = options.trial;
  if (options.bouncers !== undefined) out.bouncers = options.bouncers;
  if (options.evidence !== undefined) out.evidence = options.evidence;
  if (problems.length) throw new KeyOptionError(problems);
  return out;
}

export interface CreatedKey {
  record: ApiKeyRecord;
  /** The secret key: shown once, never stored. */
  key: string;
  webhookSecret: string;
}

/** `marks.demo`: the demo key of a first start, which `mailsure demo remove` deletes. */
export async function createKey(store: KeyStore, name: string, options: KeyOptions, marks: { demo?: boolean } = {}): Promise<CreatedKey> {
  if (!NAME_PATTERN.test(name)) {
    throw new KeyOptionError(['name must be 1–64 letters, digits, dots, dashes or underscores, starting with a letter or digit']);
  }
  const parsed = parseKeyOptions(options);
  const trial = parsed.trial ?? false;
  const settings: KeySettings = {
    services: parsed.services ?? (trial ? [...TRIAL_SERVICES] : [...SERVICES]),
    variant: parsed.variant ?? 'safe_to_send',
    fields: parsed.fields === undefined ? null : parsed.fields,
    quota: parsed.quota === undefined ? (trial ? TRIAL_QUOTA : null) : parsed.quota,
    rate: parsed.rate ?? DEFAULT_RATE_PER_SECOND,
    // Off unless asked for: the contract limits calls, not records.
    recordRate: parsed.recordRate ?? null,
    trial,
    // Importing a bouncer list is the opt-in (decisions §2); a key opts out with --no-bouncers.
    bouncers: parsed.bouncers ?? true,
    // A verdict's evidence shows SMTP replies and DNS answers: granted per key, never by default.
    evidence: parsed.evidence ?? false,
  };
  const key = generateApiKey();
  const webhookSecret = generateWebhookSecret();
  const record = await store.create({
    ...settings,
    name,
    keyHash: hashApiKey(key),
    keyPrefix: displayPrefix(key),
    webhookSecret,
    ...(marks.demo ? { demo: true } : {}),
  });
  return { record, key, webhookSecret };
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
