/**
 * A real Exim (Debian's exim4-daemon-light 4.96, unpacked by scripts/install-mtas.sh into .mta/exim)
 * with a private configuration, run as root in a private mount namespace (`unshare -m`) where
 * /etc/passwd holds the `Debian-exim` user the binary was built for and /etc/resolv.conf names the
 * test's DNS server: Exim resolves through the system resolver, as in production.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { superviseMta } from './listening.js';

const ROOT = resolve(import.meta.dirname, '../../../.mta');
const EXIM = join(ROOT, 'exim/usr/sbin/exim4');

export interface RunningMta {
  /** Files the MTA wrote (its logs), for a failing test's message. */
  dir: string;
  /** What it printed (Postfix logs to its standard output), for a failing test's message. */
  log?: () => string;
  close(): Promise<void>;
}

/**
 * The resolv.conf an MTA of the suite reads: the test's DNS server, which answers every question
 * (it runs in the test's own process, beside the app, and is as slow as the machine). Its timeout
 * is the resolver's longest, 30 s, no shorter than any call's deadline: a slow answer is waited
 * for, never taken by the MTA as a DNS failure (a temporary refusal where the cell expects a verdict).
 */
export function resolvConf(nameserver: string): string {
  return `nameserver ${nameserver}\noptions timeout:30 attempts:1\n`;
}

/** Installs the MTAs when missing; throws when they cannot be had (never a silent skip). */
export function ensureMtas(): void {
  if (existsSync(EXIM) && existsSync('/usr/sbin/postfix') && existsSync('/usr/sbin/postgrey')) return;
  const run = spawnSync(resolve(import.meta.dirname, '../../../scripts/install-mtas.sh'), { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`scripts/install-mtas.sh failed: ${run.stderr || run.stdout}`);
}

/**
 * `config`: an Exim configuration whose `@DIR@` is replaced by the instance's own directory (spool,
 * logs). `listen`: the addresses it names in `local_interfaces` (port 25 each), awaited here.
 */
export async function startExim(config: string, listen: string[], nameserver: string): Promise<RunningMta> {
  ensureMtas();
  const dir = await mkdtemp(join(tmpdir(), 'mailsure-exim-'));
  await mkdir(join(dir, 'spool'));
  await mkdir(join(dir, 'log'));
  const passwd = await readFile('/etc/passwd', 'utf8');
  const group = await readFile('/etc/group', 'utf8');
  await writeFile(
    join(dir, 'passwd'),
    /^Debian-exim:/m.test(passwd) ? passwd : `${passwd.trimEnd()}\nDebian-exim:x:64990:64990::/nonexistent:/usr/sbin/nologin\n`,
  );
  await writeFile(join(dir, 'group'), /^Debian-exim:/m.test(group) ? group : `${group.trimEnd()}\nDebian-exim:x:64990:\n`);
  await writeFile(join(dir, 'resolv.conf'), resolvConf(nameserver));
  await writeFile(join(dir, 'exim.conf'), config.replaceAll('@DIR@', dir));
  const mounts = ['passwd', 'group', 'resolv.conf'].map((file) => `mount --bind ${dir}/${file} /etc/${file}`).join(' && ');
  const child = spawn('unshare', ['-m', 'sh', '-c', `${mounts} && exec ${EXIM} -C ${dir}/exim.conf -bdf`], {
    env: { ...process.env, LD_LIBRARY_PATH: join(ROOT, 'exim/usr/lib/x86_64-linux-gnu') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return superviseMta(
    child,
    dir,
    listen.map((host) => ({ host, port: 25 })),
  );
}
