// `mailsure --version` prints package.json's version, read at run time from the compiled dist/.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

describe('mailsure --version', () => {
  it("prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string };
    const result = runCli(['--version'], {});
    expect(result).toMatchObject({ status: 0, stdout: `${version}\n`, stderr: '' });
  });
});
