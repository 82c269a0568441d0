/**
 * A real postgrey (Debian's package, installed by scripts/install-mtas.sh with no system daemon):
 * the greylisting policy service Postfix asks (`check_policy_service inet:…`), and Exim through
 * an ACL's `readsocket`, in the foreground
 * with its own database directory and empty whitelists, auto-whitelisting off so that every cell
 * sees the same greylist whatever ran before it.
 */
import { spawn } from 'node:child_process';
import { chown, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMtas, type RunningMta } from './exim.js';
import { superviseMta } from './listening.js';

/** `exim`: one query a connection, as Exim's `readsocket` asks (postgrey's `--exim`). */
export async function startPostgrey(
  address: string,
  port: number,
  delaySeconds: number,
  options: { exim?: boolean } = {},
): Promise<RunningMta> {
  ensureMtas();
  const dir = await mkdtemp(join(tmpdir(), 'mailsure-postgrey-'));
  const owner = /^postgrey:[^:]*:(\d+):(\d+):/m.exec(await readFile('/etc/passwd', 'utf8'));
  if (!owner) throw new Error('no postgrey user: is postgrey installed (scripts/install-mtas.sh)?');
  await chown(dir, Number(owner[1]), Number(owner[2]));
  for (const list of ['clients', 'recipients']) await writeFile(join(dir, `whitelist_${list}`), '');
  const child = spawn(
    '/usr/sbin/postgrey',
    [
      `--inet=${address}:${port}`,
      `--delay=${delaySeconds}`,
      `--dbdir=${dir}`,
      `--pidfile=${dir}/postgrey.pid`,
      '--auto-whitelist-clients=0',
      `--whitelist-clients=${dir}/whitelist_clients`,
      `--whitelist-recipients=${dir}/whitelist_recipients`,
      ...(options.exim ? ['--exim'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return superviseMta(child, dir, [{ host: address, port }]);
}
