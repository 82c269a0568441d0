/**
 * A real Postfix (Debian's package, installed by scripts/install-mtas.sh with no system daemon)
 * with a private configuration: in a private mount namespace (`unshare -m`) its own directory is
 * bind-mounted over /etc/postfix (so it needs no alternate_config_directories) and
 * /etc/resolv.conf names the test's DNS server. Queue and data live in the instance's directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmod, cp, chown, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureMtas, resolvConf, type RunningMta } from './exim.js';
import { superviseMta } from './listening.js';

export interface PostfixSetup {
  /** main.cf; `@DIR@` is the instance's directory. */
  mainCf: string;
  /** `smtpd` listeners, one master.cf line each (`127.0.0.91:smtp inet n - n - - smtpd -o …`). */
  listeners: string[];
  /** More files for the configuration directory (lookup tables), by name. */
  files: Record<string, string>;
  nameserver: string;
}

export async function startPostfix(setup: PostfixSetup): Promise<RunningMta> {
  ensureMtas();
  const dir = await mkdtemp(join(tmpdir(), 'mailsure-postfix-'));
  await chmod(dir, 0o755); // Postfix's daemons drop to the postfix user, which must reach data/
  const etc = join(dir, 'etc');
  await cp('/etc/postfix', etc, { recursive: true });
  await mkdir(join(dir, 'queue'));
  await mkdir(join(dir, 'data'));
  await mkdir(join(dir, 'log')); // maillog_file = @DIR@/log/maillog, written by postlogd as the postfix user
  const owner = /^postfix:[^:]*:(\d+):(\d+):/m.exec(await readFile('/etc/passwd', 'utf8'));
  if (!owner) throw new Error('no postfix user: is Postfix installed (scripts/install-mtas.sh)?');
  for (const sub of ['data', 'log']) await chown(join(dir, sub), Number(owner[1]), Number(owner[2]));
  // Debian's master.cf, chroot off (the instance's resolv.conf must be the one it reads), our listeners instead of its smtpd.
  const master = (await readFile('/etc/postfix/master.cf', 'utf8'))
    .split('\n')
    .map((line) => line.replace(/^(\S+\s+(?:inet|unix|unix-dgram|fifo|pass)\s+\S+\s+\S+\s+)y(\s)/, '$1n$2'))
    .filter((line) => !/^smtp\s+inet\s/.test(line))
    .join('\n');
  await writeFile(join(etc, 'master.cf'), `${setup.listeners.join('\n')}\n${master}`);
  await writeFile(join(etc, 'main.cf'), setup.mainCf.replaceAll('@DIR@', dir));
  for (const [name, content] of Object.entries(setup.files)) await writeFile(join(etc, name), content.replaceAll('@DIR@', dir));
  const tls = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=mx.postfix.test',
      '-days',
      '2',
      '-keyout',
      join(etc, 'key.pem'),
      '-out',
      join(etc, 'cert.pem'),
    ],
    { encoding: 'utf8' },
  );
  if (tls.status !== 0) throw new Error(`openssl: ${tls.stderr}`);
  await writeFile(join(dir, 'resolv.conf'), resolvConf(setup.nameserver));
  const mounts = `mount --bind ${etc} /etc/postfix && mount --bind ${dir}/resolv.conf /etc/resolv.conf`;
  // `postfix check` makes the queue's directories; the master in the foreground (`-s`), its daemons its children.
  const child = spawn('unshare', ['-m', 'sh', '-c', `${mounts} && postfix check && exec /usr/lib/postfix/sbin/master -s`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return superviseMta(
    child,
    dir,
    setup.listeners.map((line) => ({ host: line.split(':')[0]!, port: 25 })),
  );
}
