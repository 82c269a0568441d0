/** What DNS says about where a domain's mail goes; the facts the domain stage decides on. */

export interface MxHost {
  name: string;
  priority: number;
}

export type MailRoute =
  /** MX records, best preference first. */
  | { kind: 'mx'; hosts: MxHost[] }
  /** No MX but an address record: the domain itself is the mail host (RFC 5321 §5.1). */
  | { kind: 'implicit'; hosts: MxHost[] }
  /** RFC 7505 null MX: the domain says it accepts no mail. */
  | { kind: 'null-mx' }
  | { kind: 'nxdomain' }
  /** The name exists but has neither MX nor address records. */
  | { kind: 'no-mail' }
  /** SERVFAIL, timeout, refused: no answer to decide on. Never a reason to call an address invalid. */
  | { kind: 'unavailable'; reason: string };

export type AddressAnswer =
  | { kind: 'addresses'; addresses: string[]; ttlSeconds: number }
  | { kind: 'nxdomain' }
  | { kind: 'none' }
  | { kind: 'unavailable'; reason: string };

/** The DNS questions verification asks; `deadline` is an absolute time in ms. */
export interface DnsClient {
  mailRoute(domain: string, deadline: number): Promise<MailRoute>;
  addresses(host: string, deadline: number): Promise<AddressAnswer>;
  /** Name servers of the domain, lower-case; empty when it has none; null when DNS did not answer. */
  nameServers(domain: string, deadline: number): Promise<string[] | null>;
}
