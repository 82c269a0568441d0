/**
 * Runs verification tasks for a list with a global concurrency and a per-domain cap, taking the
 * domains in turn: a slow or tarpitting MX host holds at most `perDomain` slots while every
 * other domain keeps moving, so one domain never stalls a list. (The SMTP prober's per-host
 * connection limit still applies underneath, across every list and the real-time route.)
 */
export interface DomainScheduler {
  run<T>(domain: string, task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
}

interface Waiting {
  start(): void;
}

export function createDomainScheduler(options: { concurrency: number; perDomain: number }): DomainScheduler {
  if (!(options.concurrency >= 1 && options.perDomain >= 1)) throw new RangeError('concurrency and perDomain must be at least 1');
  const queues = new Map<string, Waiting[]>();
  const running = new Map<string, number>();
  /** Domains with waiting tasks, in turn order. */
  const turn: string[] = [];
  let active = 0;

  const pump = () => {
    let scanned = 0;
    while (active < options.concurrency && scanned < turn.length) {
      const domain = turn.shift()!;
      const queue = queues.get(domain)!;
      if ((running.get(domain) ?? 0) >= options.perDomain) {
        turn.push(domain);
        scanned += 1;
        continue;
      }
      scanned = 0;
      const next = queue.shift()!;
      if (queue.length > 0) turn.push(domain);
      else queues.delete(domain);
      active += 1;
      running.set(domain, (running.get(domain) ?? 0) + 1);
      next.start();
    }
  };

  return {
    get active() {
      return active;
    },
    run(domain, task) {
      return new Promise((resolve, reject) => {
        const waiting: Waiting = {
          start() {
            task()
              .then(resolve, reject)
              .finally(() => {
                active -= 1;
                const left = running.get(domain)! - 1;
                if (left === 0) running.delete(domain);
                else running.set(domain, left);
                pump();
              });
          },
        };
        const queue = queues.get(domain);
        if (queue) queue.push(waiting);
        else {
          queues.set(domain, [waiting]);
          turn.push(domain);
        }
        pump();
      });
    },
  };
}
