/**
 * Watches the share of NXDOMAIN among real traffic's MX lookups. A resolver that starts lying
 * after the last check shows up as a jump in that share; the component then re-checks at once
 * instead of waiting for its next scheduled check. Pure: time is passed in.
 */

export interface NxdomainWatchOptions {
  /** Window the share is measured over (default one minute). */
  windowMs?: number;
  /** Lookups needed before the share means anything (default 10). */
  minLookups?: number;
  /** Share of NXDOMAIN that calls for a re-check (default 0.5). */
  threshold?: number;
}

export class NxdomainWatch {
  private readonly windowMs: number;
  private readonly minLookups: number;
  private readonly threshold: number;
  private events: { at: number; nxdomain: boolean }[] = [];

  constructor(options: NxdomainWatchOptions = {}) {
    this.windowMs = options.windowMs ?? 60_000;
    this.minLookups = options.minLookups ?? 10;
    this.threshold = options.threshold ?? 0.5;
  }

  /** Records one lookup; true when the share of NXDOMAIN in the window calls for a re-check. */
  record(nxdomain: boolean, now: number): boolean {
    this.events.push({ at: now, nxdomain });
    const since = now - this.windowMs;
    if (this.events[0]!.at <= since) this.events = this.events.filter((e) => e.at > since);
    if (this.events.length > 10_000) this.events = this.events.slice(-5_000);
    if (!nxdomain || this.events.length < this.minLookups) return false;
    const denied = this.events.reduce((n, e) => n + (e.nxdomain ? 1 : 0), 0);
    return denied / this.events.length >= this.threshold;
  }

  /** Forget what was seen (after a re-check that found the resolver honest). */
  clear(): void {
    this.events = [];
  }
}
