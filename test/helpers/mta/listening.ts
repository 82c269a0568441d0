/** Waits for a real MTA to answer on its address: connects until it is accepted (no fixed sleeps). */
import type { ChildProcessByStdio } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { connect } from 'node:net';
import type { Readable } from 'node:stream';
import type { RunningMta } from './exim.js';

export async function waitForListener(host: string, port: number, exited: () => string | undefined, limitMs = 30_000): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const why = exited();
    if (why !== undefined) throw new Error(`the MTA on ${host}:${port} stopped before it listened: ${why}`);
    if (await accepts(host, port)) return;
    if (Date.now() > until) throw new Error(`nothing listened on ${host}:${port} within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * An MTA process of the suite, supervised: what it prints kept for a failing test's message, its
 * exit noticed, ready once each of `listeners` accepts (and `ready`, when given, resolves), and
 * stopped (SIGTERM) with its directory removed on close (kept with MAILSURE_KEEP_MTA_DIR). A start
 * that fails stops it before the error is thrown.
 */
export async function superviseMta(
  child: ChildProcessByStdio<null, Readable, Readable>,
  dir: string,
  listeners: readonly { host: string; port: number }[],
  ready?: (output: () => string, exited: () => string | undefined) => Promise<void>,
): Promise<Required<RunningMta>> {
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exit: string | undefined;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exit = `exit ${code ?? signal}: ${output}`;
      done();
    }),
  );
  const close = async () => {
    if (exit === undefined) child.kill('SIGTERM');
    await exited;
    if (!process.env.MAILSURE_KEEP_MTA_DIR) await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const { host, port } of listeners) await waitForListener(host, port, () => exit);
    if (ready)
      await ready(
        () => output,
        () => exit,
      );
  } catch (error) {
    await close();
    throw error;
  }
  return { dir, close, log: () => output };
}
