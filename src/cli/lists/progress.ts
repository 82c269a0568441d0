/**
 * Progress of a list being waited for, read as records by the client's `progressOf`: a bar
 * (cli-progress) on a terminal, one line per change otherwise (a log, a CI job, a pipe). The bar
 * and the count are the least advanced service's; each service's own count follows.
 */
import cliProgress from 'cli-progress';
import type { Progress, ServiceProgress } from '@mailsure/client';

export interface ProgressView {
  update(progress: Progress): void;
  stop(): void;
}

/** `email_validation 120/298, email_intelligence 80/298`: each service's own count. */
export function servicesLine(services: readonly ServiceProgress[]): string {
  return services.map((s) => `${s.name} ${s.done}/${s.total}`).join(', ');
}

/** `Pending (in progress) 80/298 records (email_validation 120/298, email_intelligence 80/298)`. */
export function progressLine(p: Progress): string {
  const services = p.services.length > 0 ? ` (${servicesLine(p.services)})` : '';
  return `${p.label} ${p.done}/${p.total} records${services}`;
}

export function progressView(stream: NodeJS.WriteStream = process.stderr): ProgressView {
  if (!stream.isTTY) {
    let last = '';
    return {
      update(p) {
        const line = progressLine(p);
        if (line !== last) stream.write(`list ${p.list.list_id}: ${line}\n`);
        last = line;
      },
      stop() {},
    };
  }
  const bar = new cliProgress.SingleBar(
    // A short bar leaves room on the line for the services' counts (cli-progress cuts a line at the terminal's width).
    {
      stream,
      format: 'list {list} [{bar}] {percentage}% {value}/{total} records | {status}{services}',
      barsize: 20,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p) {
      // One service's count is the list's: the services part only says something when there are several.
      const payload = { list: p.list.list_id, status: p.label, services: p.services.length > 1 ? ` | ${servicesLine(p.services)}` : '' };
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
