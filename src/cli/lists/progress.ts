/**
 * Progress of a list being waited for, fed by its status counts: a bar (cli-progress) on a
 * terminal, one line per change otherwise (a log, a CI job, a pipe).
 */
import cliProgress from 'cli-progress';
import type { Progress } from '@mailsure/client';

export interface ProgressView {
  update(progress: Progress): void;
  stop(): void;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  if (!stream.isTTY) {
    let last = '';
    return {
      update(p) {
        const line = `${p.status} ${p.done}/${p.total}`;
        if (line !== last) stream.write(`list ${p.list.list_id}: ${line}\n`);
        last = line;
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream, format: 'list {list} [{bar}] {percentage}% {value}/{total} records | {status}', hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      const payload = { list: p.list.list_id, status: p.status };
      // Before the file is parsed a list has no counts yet: a bar of one step, not of zero.
      const total = Math.max(p.total, 1);
      if (!started) bar.start(total, p.done, payload);
      else bar.setTotal(total);
      bar.update(p.done, payload);
      started = true;
    },
    stop: () => bar.stop(),
  };
}
