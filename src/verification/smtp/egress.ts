/**
 * How a probe leaves this process: the name it gives in EHLO and the SOCKS5 proxy it goes
 * through, if any. Chosen per MX host, so that a provider table can send one provider's probes
 * through another proxy (another egress address) under another name; the prober and the SMTP
 * egress check (health) ask the same chooser, so the check tests the way a probe would go.
 */
import { describeProxy, type SocksProxy } from '../../core/socks-proxy-url.js';

export interface SmtpEgress {
  helo: string;
  /** Absent: a direct connection from this host. */
  proxy?: SocksProxy;
  /** A direct connection bound to this local address (MAILSURE_SMTP_SOURCE_ADDRESSES). */
  localAddress?: string;
  /**
   * Opaque: the operator's name or `egress-N` (core/egress-settings.ts). All that the operator
   * view, `/metrics`, the doctor and evidence show of an egress: never an address or a credential.
   */
  label?: string;
}

/** The egress's opaque label: `egress-2`, or the operator's name for it (`egress-1` for the one default egress). */
export function egressLabel(egress: Pick<SmtpEgress, 'label'>): string {
  return egress.label ?? 'egress-1';
}

/** The egress for probes to one MX host (its name, as in the MX record). */
export type EgressChooser = (mxHost: string) => SmtpEgress;

/** One egress for every MX host: MAILSURE_SMTP_HELO and MAILSURE_SMTP_PROXY. */
export function singleEgress(egress: SmtpEgress): EgressChooser {
  return () => egress;
}

/**
 * One egress per provider, the default for the rest. `providerOf` names the provider of an MX
 * host (a profile table's lookup), or undefined.
 */
export function egressByProvider(
  fallback: SmtpEgress,
  providerOf: (mxHost: string) => string | undefined,
  byProvider: ReadonlyMap<string, SmtpEgress>,
): EgressChooser {
  return (mxHost) => {
    const provider = providerOf(mxHost);
    return (provider !== undefined ? byProvider.get(provider) : undefined) ?? fallback;
  };
}

/** `via socks5://host:port` for evidence and logs, or '' for a direct connection. */
export function describeVia(egress: SmtpEgress): string {
  return egress.proxy ? `via ${describeProxy(egress.proxy)}` : '';
}

/** What kind of way out an egress is, for the doctor and the operator view (never its address). */
export function egressWay(egress: SmtpEgress): 'socks5' | 'source-address' | 'direct' {
  return egress.proxy ? 'socks5' : egress.localAddress ? 'source-address' : 'direct';
}
