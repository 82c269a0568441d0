/**
 * A real Haraka (the npm package, a devDependency pinned with its Node 20 plugins in package.json's
 * overrides), one process per instance with a private configuration directory: its `config/` files
 * and its own `plugins/`, run in a private mount namespace (`unshare -m`) where /etc/resolv.conf
 * names the test's DNS server, since Haraka's plugins resolve through Node's resolver, which reads
 * it. Single process (`nodes=0`), in the foreground, logging to its standard output.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resolvConf, type RunningMta } from './exim.js';
import { superviseMta } from './listening.js';

export interface HarakaSetup {
  /** The address it listens on, port 25. */
  address: string;
  /** Files of its `config/` directory by name (`plugins`, `me`, `host_list`, `*.ini`…). */
  config: Record<string, string>;
  /** Its own plugins (`plugins/NAME.js`), by name. */
  plugins?: Record<string, string>;
  nameserver: string;
  /** A line of its log that says it is ready beyond listening (a plugin connected to Redis). */
  ready?: RegExp;
}

/** Haraka's entry point from the installed package; throws (fails the file) when it is missing. */
function harakaBin(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('Haraka/package.json')), 'bin/haraka');
}

export async function startHaraka(setup: HarakaSetup): Promise<RunningMta> {
  const bin = harakaBin();
  const dir = await mkdtemp(join(tmpdir(), 'mailsure-haraka-'));
  // What `haraka -i` lays out: the package's default configuration, ours written over it.
  await cp(join(dirname(bin), '../config'), join(dir, 'config'), { recursive: true });
  await mkdir(join(dir, 'plugins'));
  const config: Record<string, string> = {
    'smtp.ini': `[main]\nlisten=${setup.address}:25\nnodes=0\ndaemonize=false\n`,
    'log.ini': '[main]\nlevel=info\ntimestamps=false\n',
    ...setup.config,
  };
  for (const [name, content] of Object.entries(config)) await writeFile(join(dir, 'config', name), content);
  for (const [name, content] of Object.entries(setup.plugins ?? {})) await writeFile(join(dir, 'plugins', `${name}.js`), content);
  await writeFile(join(dir, 'resolv.conf'), resolvConf(setup.nameserver));
  const child = spawn(
    'unshare',
    ['-m', 'sh', '-c', `mount --bind ${dir}/resolv.conf /etc/resolv.conf && exec "${process.execPath}" "${bin}" -c "${dir}"`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return superviseMta(
    child,
    dir,
    [{ host: setup.address, port: 25 }],
    setup.ready ? (output, exited) => waitForLine(setup.ready!, output, exited) : undefined,
  );
}

/** Waits until the log says `line` (polling its output, no fixed sleep); fails when it stops first. */
async function waitForLine(line: RegExp, output: () => string, exited: () => string | undefined, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (!line.test(output())) {
    const why = exited();
    if (why !== undefined) throw new Error(`Haraka stopped before it logged ${line}: ${why}`);
    if (Date.now() > until) throw new Error(`Haraka did not log ${line} within ${limitMs} ms: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
