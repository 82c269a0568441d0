/** Runs the real `mailsure` command in a child process. */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'mailsure.js');

/**
 * Each `mailsure` run starts Node and compiles the sources through tsx: about a second on an idle
 * machine, 4 s or more on a loaded one (CI, a shared 2-core box). A run gets a generous limit, and
 * a test or hook that runs the CLI gets CLI_TEST_TIMEOUT, so a slow machine never fails a test
 * that is right; only a hung command does.
 */
export const CLI_RUN_TIMEOUT = 120_000;
export const CLI_TEST_TIMEOUT = 300_000;

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    encoding: 'utf8',
    timeout: CLI_RUN_TIMEOUT,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * `runCli` without blocking this process: for commands that talk to servers the test itself runs
 * (the test world), which a synchronous spawn would leave unable to answer.
 */
export function runCliAsync(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Starts `mailsure serve`, resolving once it printed `wanted` (a pattern) on stdout. */
export function startServe(env: Record<string, string>, wanted: RegExp) {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (wanted.test(stdout)) resolve(stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return {
    child,
    ready,
    output: () => ({ stdout, stderr }),
    /** SIGTERM; resolves with the exit code once the output streams closed too, so output() holds all it printed. */
    stop: () =>
      new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('close', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}
