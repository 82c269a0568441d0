/**
 * The record of verdicts that outcomes join (issue 32) over HTTP: /v5/ev records the verdicts of a
 * key holding an outcome ingestion token, by HMAC id under the server secret, and nothing for a key
 * without one (no outcome could ever meet those, and recording costs the hot path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateOutcomeToken, hashOutcomeToken } from '../../src/outcomes/ingest-token.js';
import { verdictIdOf, verdictRecordKey, type VerdictIdOf } from '../../src/outcomes/verdict-record.js';
import { loadSecretKey } from '../../src/storage/secret-box.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let idOf: VerdictIdOf;

beforeAll(async () => {
  t = await makeTestApp();
  idOf = verdictIdOf(verdictRecordKey(await loadSecretKey(undefined, t.dataDir)));
});
afterAll(() => t.close());

const ev = (key: string, email: string) => t.app.inject({ method: 'GET', url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${key}` });

describe('the verdict record behind /v5/ev', () => {
  it('records a token-holding key’s verdicts once per address, none from before its token, and none of a key without one', async () => {
    const holder = await t.key('holds-token');
    const other = await t.key('no-token');
    const before = await ev(holder.key, 'early@example.com');
    expect(before.statusCode).toBe(200);

    await t.storage.outcomeKeys.setToken(holder.record.id, hashOutcomeToken(generateOutcomeToken()));
    await t.recorder.flush(); // what the server's timer does each second: write, then read the token holders
    expect((await ev(holder.key, 'Jane.Doe@example.com')).json()).toEqual({
      safe_to_send: { address: 'jane.doe@example.com', status_code: 10, status: 'valid' },
    });
    expect((await ev(holder.key, 'bad@@example.com')).statusCode).toBe(200);
    expect((await ev(holder.key, 'jane.doe@example.com')).statusCode).toBe(200);
    expect((await ev(other.key, 'jane.doe@example.com')).statusCode).toBe(200);
    await t.recorder.flush();

    const held = await t.storage.verdictRecords.find(holder.record.id, [
      idOf(holder.record.id, 'jane.doe@example.com'),
      idOf(holder.record.id, 'early@example.com'),
    ]);
    expect(held.map((r) => [r.id, r.code])).toEqual([[idOf(holder.record.id, 'jane.doe@example.com'), 10]]);
    expect(await t.storage.verdictRecords.find(other.record.id, [idOf(other.record.id, 'jane.doe@example.com')])).toEqual([]);
  });
});
