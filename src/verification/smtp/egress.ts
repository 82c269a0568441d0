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
export function egressByProvider(fallback: SmtpEgress, providerOf: (mxHost: string) => string | undefined, byProvider: ReadonlyMap<string, SmtpEgress>): EgressChooser {
  return (mxHost) => {
    const provider = providerOf(mxHost);
    return (provider !== undefined ? byProvider.get(provider) : undefined) ?? fallback;
  };
}

/** `via socks5://host:port` for evidence and logs, or '' for a direct connection. */
export function describeVia(egress: SmtpEgress): string {
  return egress.proxy ? `via ${describeProxy(egress.proxy)}` : '';
}
