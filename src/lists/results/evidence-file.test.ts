import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unzip } from '../../../test/helpers/unzip.js';
import type { RuleId } from '../../verification/rules.js';
import { tempDir } from '../test-support.js';
import { evidenceFileName, evidenceZipName, writeEvidenceFile, type EvidenceRun } from './evidence-file.js';

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

const evidence = (rule: RuleId, reason?: string) => ({
  rule,
  rule_summary: 's',
  rule_doc: 'd',
  ...(reason ? { reason } : {}),
  stages: [],
  smtp: [],
});

describe('the evidence file', () => {
  it('is named after the list, as the results file is', () => {
    expect(evidenceFileName('clients.csv', 42)).toBe('clients-42-Evidence.jsonl');
    expect(evidenceFileName('my.list.zip', 7)).toBe('my.list-7-Evidence.jsonl');
    expect(evidenceZipName('clients.txt', 42)).toBe('clients-42-Evidence.zip');
  });

  it('holds one JSON line per record, numbered from each run’s first row, in a zip of one owner-only file', async () => {
    const zipPath = tmp.path('evidence.zip');
    const runs: EvidenceRun[] = [
      {
        firstRow: 1,
        entries: [
          { email: 'ann@example.com', evidence: evidence('syntax.empty') },
          { email: '', evidence: null },
        ],
      },
      { firstRow: 3, entries: [{ email: 'bob@example.com', evidence: evidence('syntax.general') }] },
    ];
    const written = await writeEvidenceFile({ zipPath, innerName: 'list-5-Evidence.jsonl' }, runs);
    expect(written).toEqual({ zipPath, sizeBytes: (await stat(zipPath)).size, rows: 3 });
    expect((await stat(zipPath)).mode & 0o777).toBe(0o600);
    const files = await unzip(await readFile(zipPath));
    expect(Object.keys(files)).toEqual(['list-5-Evidence.jsonl']);
    expect(files['list-5-Evidence.jsonl']).toBe(
      [
        JSON.stringify({ row: 1, email: 'ann@example.com', evidence: evidence('syntax.empty') }),
        '{"row":2,"email":"","evidence":null}',
        JSON.stringify({ row: 3, email: 'bob@example.com', evidence: evidence('syntax.general') }),
        '',
      ].join('\n'),
    );
  });

  it('writes large lists in pieces, whole', async () => {
    const zipPath = tmp.path('large.zip');
    const entries = Array.from({ length: 5_000 }, (_, i) => ({
      email: `user${i}@example.com`,
      evidence: evidence('syntax.general', `row ${i}`),
    }));
    await writeEvidenceFile({ zipPath, innerName: 'large.jsonl' }, [{ firstRow: 1, entries }]);
    const lines = (await unzip(await readFile(zipPath)))['large.jsonl']!.trimEnd().split('\n');
    expect(lines).toHaveLength(5_000);
    expect(JSON.parse(lines[4_999]!)).toEqual({
      row: 5_000,
      email: 'user4999@example.com',
      evidence: evidence('syntax.general', 'row 4999'),
    });
  });

  it('leaves no file behind when its runs fail', async () => {
    const zipPath = tmp.path('failed.zip');
    async function* failing(): AsyncGenerator<EvidenceRun> {
      yield { firstRow: 1, entries: [{ email: 'a@b.com', evidence: null }] };
      throw new Error('no committed evidence for chunk 1');
    }
    await expect(writeEvidenceFile({ zipPath, innerName: 'x.jsonl' }, failing())).rejects.toThrow('no committed evidence for chunk 1');
    expect(existsSync(zipPath)).toBe(false);
    expect(existsSync(`${zipPath}.partial`)).toBe(false);
  });
});
