import { describe, expect, it } from 'vitest';
import { openMemoryStorage } from '../storage/open-storage.js';
import { createKey, KeyOptionError, parseKeyOptions } from './key-admin.js';
import { hashApiKey } from './api-key.js';

describe('parseKeyOptions', () => {
  it('parses every setting', () => {
    expect(
      parseKeyOptions({
        services: 'verification, lists',
        variant: 'email_validation',
        fields: 'age,financial_segement',
        quota: '100',
        rate: '20',
        recordRate: '2000',
        trial: true,
      }),
    ).toEqual({
      services: ['verification', 'lists'],
      variant: 'email_validation',
      fields: ['age', 'financial_segment'],
      quota: 100,
      rate: 20,
      recordRate: 2000,
      trial: true,
    });
    expect(parseKeyOptions({ services: 'all', fields: 'all', quota: 'none', recordRate: 'none' })).toMatchObject({
      fields: null,
      quota: null,
      recordRate: null,
    });
    expect(parseKeyOptions({})).toEqual({});
  });

  it.each(['0', '-5', 'lots', '', '1e3', '1234567890'])('refuses the record rate %j', (recordRate) => {
    expect(() => parseKeyOptions({ recordRate })).toThrow(
      new KeyOptionError(['record rate must be a whole number of records per second, at least 1, or none']),
    );
  });

  it('lists every bad setting', () => {
    try {
      parseKeyOptions({
        services: 'verification,teleport',
        variant: 'v3',
        fields: 'age,shoe_size',
        quota: '-1',
        rate: '0',
        recordRate: '1.5',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KeyOptionError);
      expect((error as KeyOptionError).problems).toEqual([
        'unknown service teleport (known: verification, corrections, enrichment, eam, email_append, postal_append, lists, all)',
        'variant must be safe_to_send or email_validation',
        'unknown field shoe_size',
        'quota must be a whole number of calls, or none',
        'rate must be a whole number of calls per second, at least 1',
        'record rate must be a whole number of records per second, at least 1, or none',
      ]);
    }
  });
});

describe('createKey', () => {
  it('stores only the hash and applies defaults', async () => {
    const storage = openMemoryStorage();
    const created = await createKey(storage.keys, 'acme', {});
    expect(created.record).toMatchObject({
      name: 'acme',
      variant: 'safe_to_send',
      fields: null,
      quota: null,
      rate: 500,
      recordRate: null,
      trial: false,
    });
    expect(created.record.services).toHaveLength(7);
    expect(created.record.keyHash).toBe(hashApiKey(created.key));
    expect(JSON.stringify(await storage.keys.list())).not.toContain(created.key);
    expect(created.webhookSecret).toMatch(/^whsec_/);
  });

  it('gives trial keys their services and quota', async () => {
    const storage = openMemoryStorage();
    const { record } = await createKey(storage.keys, 't', { trial: true, quota: '50' });
    expect(record).toMatchObject({ services: ['verification', 'enrichment'], quota: 50, trial: true });
  });

  it.each(['', ' acme', 'a b', '-lead', 'x'.repeat(65), 'naïve'])('refuses the name %j', async (name) => {
    await expect(createKey(openMemoryStorage().keys, name, {})).rejects.toBeInstanceOf(KeyOptionError);
  });
});
