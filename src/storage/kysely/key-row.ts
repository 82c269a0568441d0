/** Conversions between `api_keys` rows and the accounts domain's records. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { ApiKeyRecord, KeySettings, Service, Variant } from '../../accounts/key-config.js';
import type { ApiKeysTable } from '../database.js';

export function toRecord(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    keyHash: row.key_hash,
    keyPrefix: row.key_prefix,
    webhookSecret: row.webhook_secret,
    services: JSON.parse(row.services) as Service[],
    variant: row.variant as Variant,
    fields: row.fields === null ? null : (JSON.parse(row.fields) as string[]),
    quota: row.quota,
    rate: row.rate,
    recordRate: row.record_rate,
    trial: row.trial === 1,
    bouncers: row.bouncers === 1,
    evidence: row.evidence === 1,
    callsUsed: row.calls_used,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Every setting of a new key, as columns. */
export function newKeyRow(settings: KeySettings): Pick<Insertable<ApiKeysTable>, SettingColumn> {
  return {
    services: JSON.stringify(settings.services),
    variant: settings.variant,
    fields: encodeFields(settings.fields),
    quota: settings.quota,
    rate: settings.rate,
    record_rate: settings.recordRate,
    trial: settings.trial ? 1 : 0,
    bouncers: settings.bouncers ? 1 : 0,
    evidence: settings.evidence ? 1 : 0,
  };
}

type SettingColumn = 'services' | 'variant' | 'fields' | 'quota' | 'rate' | 'record_rate' | 'trial' | 'bouncers' | 'evidence';

/** Only the settings present in `changes`: undefined means "leave as is", null is a value. */
export function settingsToRow(changes: Partial<KeySettings>): Updateable<ApiKeysTable> {
  const row: Updateable<ApiKeysTable> = {};
  if (changes.services !== undefined) row.services = JSON.stringify(changes.services);
  if (changes.variant !== undefined) row.variant = changes.variant;
  if (changes.fields !== undefined) row.fields = encodeFields(changes.fields);
  if (changes.quota !== undefined) row.quota = changes.quota;
  if (changes.rate !== undefined) row.rate = changes.rate;
  if (changes.recordRate !== undefined) row.record_rate = changes.recordRate;
  if (changes.trial !== undefined) row.trial = changes.trial ? 1 : 0;
  if (changes.bouncers !== undefined) row.bouncers = changes.bouncers ? 1 : 0;
  if (changes.evidence !== undefined) row.evidence = changes.evidence ? 1 : 0;
  return row;
}

function encodeFields(fields: string[] | null): string | null {
  return fields === null ? null : JSON.stringify(fields);
}
