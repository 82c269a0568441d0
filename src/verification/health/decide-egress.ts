/**
 * The SMTP egress check's decision, pure: can this process open TCP port 25 (MAILSURE_SMTP_PORT)
 * to the canary providers' MX hosts and hear a banner? A banner, even a refusing one, proves the
 * way out is open; connections refused or timing out at every canary prove it is closed, which
 * is what most cloud hosts do to port 25 by default. Through a SOCKS proxy, the same question is
 * asked of the proxy's host, and a proxy that fails us fails the egress with a hint of its own.
 */
import type { ConcernHealth } from './health-state.js';

export type BannerOutcome =
  /** Connected and got a 220 banner. */
  | 'banner'
  /** Connected, but the banner refused us (5xx/4xx instead of 220). */
  | 'banner-reject'
  /** Connected, no banner before the time-out (a filter that accepts and holds, or a tarpit). */
  | 'no-banner'
  | 'refused'
  | 'unreachable'
  | 'connect-timeout'
  /** The SOCKS proxy the check went through is down, silent, refused us or failed. */
  | 'proxy-failed';

export interface BannerCheck {
  host: string;
  address: string;
  outcome: BannerOutcome;
  /** The banner's text, for `banner` and `banner-reject`; what the proxy said, for `proxy-failed`. */
  text?: string;
  /** The proxy the check went through (`socks5://host:port`), when it went through one. */
  via?: string;
}

export const CONNECTED: ReadonlySet<BannerOutcome> = new Set(['banner', 'banner-reject']);

/** What to do about a closed way out; `via`: the proxy probes go through, when they do. */
export function egressHint(port: number, via?: string): string {
  if (via) {
    return `outbound TCP port ${port} is blocked from the SMTP proxy's host (${via}): open it there, choose another proxy (MAILSURE_SMTP_PROXY), or set MAILSURE_VERIFY_DEPTH=domain; until then verdicts stop at what DNS proves`;
  }
  return `outbound TCP port ${port} is blocked from this host (most cloud hosts block port 25): ask the provider to open it, run the prober where it is open, or set MAILSURE_VERIFY_DEPTH=domain; until then verdicts stop at what DNS proves`;
}

/** What to do about a proxy that is down or refuses us. */
export function proxyHint(port: number): string {
  return `the SMTP proxy (MAILSURE_SMTP_PROXY) is down or refuses the prober: check that it runs, its address and credentials, and that its rules allow connections to port ${port}; until then verdicts stop at what DNS proves`;
}

export function decideEgress(checks: readonly BannerCheck[], port: number, now: number): ConcernHealth {
  const evidence = checks.map((c) => `${c.host} [${c.address}]:${port}${c.via ? ` via ${c.via}` : ''}: ${describe(c)}`);
  if (checks.length === 0) {
    return {
      state: 'unknown',
      evidence: ['no canary MX host could be resolved to try'],
      hint: "fix the resolver first: the canaries' MX hosts are found through it",
      checkedAt: now,
    };
  }
  if (checks.some((c) => CONNECTED.has(c.outcome))) return { state: 'ok', evidence, checkedAt: now };
  if (checks.some((c) => c.outcome === 'proxy-failed')) return { state: 'failed', evidence, hint: proxyHint(port), checkedAt: now };
  return { state: 'failed', evidence, hint: egressHint(port, checks.find((c) => c.via)?.via), checkedAt: now };
}

function describe(check: BannerCheck): string {
  switch (check.outcome) {
    case 'banner':
      return 'banner received';
    case 'banner-reject':
      return `connected, banner refused us: ${check.text ?? ''}`.trim();
    case 'no-banner':
      return 'connected, but no banner came (filtered or intercepted)';
    case 'refused':
      return 'connection refused';
    case 'unreachable':
      return 'no route to host';
    case 'connect-timeout':
      return 'connection timed out (filtered)';
    case 'proxy-failed':
      return `the proxy failed: ${check.text ?? ''}`.trim();
  }
}
