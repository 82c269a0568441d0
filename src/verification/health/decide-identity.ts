/**
 * The prober's identity, pure: checked and reported, never enforced on verdicts (a refusal about
 * us already never condemns an address). Providers refuse probes from an address without
 * forward-confirmed reverse DNS, from a HELO name that does not resolve, or from an address on
 * a DNS block list; and receivers that verify senders (Exim's `require verify = sender`, Postfix's
 * `reject_unknown_sender_domain`) refuse a MAIL FROM whose domain has neither MX nor address
 * records. Each of those is a fix the operator can make.
 */
import type { AddressAnswer, MailRoute } from '../dns/mail-route.js';
import { worse, type ConcernHealth, type HealthLevel } from './health-state.js';

export interface IdentityEvidence {
  helo: { name: string; answer: AddressAnswer };
  /** Only when the operator told us the egress address (MAILSURE_SMTP_EGRESS_IP). */
  egress?: {
    ip: string;
    /** PTR names of the address; null when DNS did not answer. */
    ptr: string[] | null;
    /** The addresses each PTR name resolves to. */
    forward: Record<string, AddressAnswer>;
    /** One answer per block list zone, for `<reversed ip>.<zone>`. */
    blocklists: { zone: string; answer: AddressAnswer }[];
  };
  /** Refusals about us seen in real probes, per operator (probe-evidence.ts). */
  refusals: { operator: string; text: string }[];
  /** Our MAIL FROM (`''`: the null sender) and, for an address, its domain's mail route. */
  sender?: { address: string; route?: MailRoute };
}

interface Finding {
  level: HealthLevel;
  line: string;
  hint?: string;
}

export function decideIdentity(evidence: IdentityEvidence, now: number): ConcernHealth {
  return combine(
    [
      ...heloFindings(evidence.helo),
      ...senderFindings(evidence.sender),
      ...egressFindings(evidence),
      ...refusalFindings(evidence.refusals),
    ],
    now,
  );
}

function combine(findings: Finding[], now: number): ConcernHealth {
  let state: HealthLevel = 'ok';
  for (const f of findings) state = worse(state, f.level);
  const hint = findings.filter((f) => f.level === state && f.hint)[0]?.hint;
  return { state, evidence: findings.map((f) => f.line), ...(hint && state !== 'ok' ? { hint } : {}), checkedAt: now };
}

/** Only what real probes said (refusals about us), before any DNS check of the identity ran. */
export function decideRefusals(refusals: IdentityEvidence['refusals'], now: number): ConcernHealth {
  return combine(refusalFindings(refusals), now);
}

function heloFindings({ name, answer }: IdentityEvidence['helo']): Finding[] {
  const hint =
    'set MAILSURE_SMTP_HELO to a fully qualified name whose A record is the egress address, and the PTR of that address to the same name';
  if (!name.includes('.')) return [{ level: 'degraded', line: `HELO name "${name}" is not a fully qualified domain name`, hint }];
  if (answer.kind === 'addresses')
    return [{ level: 'ok', line: `HELO name ${name} resolves to ${answer.addresses.slice(0, 3).join(', ')}` }];
  if (answer.kind === 'unavailable') return [{ level: 'unknown', line: `HELO name ${name}: no DNS answer (${answer.reason})` }];
  return [{ level: 'degraded', line: `HELO name ${name} does not resolve`, hint }];
}

function senderFindings(sender: IdentityEvidence['sender']): Finding[] {
  if (!sender) return [];
  const { address, route } = sender;
  if (address === '')
    return [
      { level: 'ok', line: "MAIL FROM is the null sender <>, as MTAs' own callouts send: no sender domain for a receiver to verify" },
    ];
  const domain = address.slice(address.lastIndexOf('@') + 1);
  const hint = `receivers that verify senders refuse MAIL FROM <${address}> (and answer about our sender, never the recipient): set MAILSURE_SMTP_FROM=<> (the null sender) or to an address at a domain you control with an MX record`;
  if (route === undefined || route.kind === 'unavailable')
    return [{ level: 'unknown', line: `MAIL FROM domain ${domain}: no DNS answer${route ? ` (${route.reason})` : ''}` }];
  if (route.kind === 'mx') return [{ level: 'ok', line: `MAIL FROM domain ${domain} has MX ${route.hosts[0]!.name}` }];
  if (route.kind === 'implicit')
    return [{ level: 'ok', line: `MAIL FROM domain ${domain} has no MX but an address record (mail goes to the domain itself)` }];
  const why =
    route.kind === 'null-mx'
      ? 'a null MX (it accepts no mail)'
      : route.kind === 'nxdomain'
        ? 'no such name in DNS'
        : 'no MX and no A record';
  return [{ level: 'degraded', line: `MAIL FROM domain ${domain} has ${why}: receivers that verify senders will refuse it`, hint }];
}

function egressFindings(evidence: IdentityEvidence): Finding[] {
  const egress = evidence.egress;
  if (!egress)
    return [{ level: 'ok', line: 'egress address not given (MAILSURE_SMTP_EGRESS_IP): reverse DNS and block lists not checked' }];
  const findings: Finding[] = [];
  const { ip, ptr } = egress;
  const helo = evidence.helo.name.toLowerCase();
  const ptrHint = `set the PTR record of ${ip} to ${evidence.helo.name} (at the provider of the address), with an A record back to ${ip}`;
  if (ptr === null) findings.push({ level: 'unknown', line: `reverse DNS of ${ip}: no answer` });
  else if (ptr.length === 0) findings.push({ level: 'degraded', line: `${ip} has no PTR record`, hint: ptrHint });
  else {
    const confirmed = ptr.filter((name) => {
      const forward = egress.forward[name];
      return forward?.kind === 'addresses' && forward.addresses.includes(ip);
    });
    if (confirmed.length === 0)
      findings.push({ level: 'degraded', line: `PTR of ${ip} is ${ptr.join(', ')}, which does not resolve back to it`, hint: ptrHint });
    else if (!confirmed.some((name) => name.toLowerCase() === helo)) {
      findings.push({
        level: 'degraded',
        line: `PTR of ${ip} is ${confirmed.join(', ')}, not the HELO name ${evidence.helo.name}`,
        hint: `set MAILSURE_SMTP_HELO=${confirmed[0]} (the confirmed PTR name)`,
      });
    } else findings.push({ level: 'ok', line: `forward-confirmed reverse DNS: ${ip} ⇄ ${evidence.helo.name}` });
  }
  for (const { zone, answer } of egress.blocklists) {
    if (answer.kind === 'addresses') {
      const codes = answer.addresses;
      if (codes.every((a) => a.startsWith('127.255.255.')))
        findings.push({
          level: 'unknown',
          line: `${zone}: the list refused the query (${codes.join(', ')}); public resolvers are often refused`,
        });
      else
        findings.push({
          level: 'failed',
          line: `${ip} is listed on ${zone} (${codes.join(', ')})`,
          hint: `${ip} is on a block list: providers will refuse probes from it; request delisting at ${zone}'s operator or probe from another address`,
        });
    } else if (answer.kind === 'unavailable') findings.push({ level: 'unknown', line: `${zone}: no answer (${answer.reason})` });
    else findings.push({ level: 'ok', line: `not listed on ${zone}` });
  }
  return findings;
}

function refusalFindings(refusals: IdentityEvidence['refusals']): Finding[] {
  if (refusals.length === 0) return [];
  const hint =
    'providers refuse this prober itself (its address, PTR or HELO): check the block lists and reverse DNS above, or probe from another address';
  const level: HealthLevel = refusals.length >= 2 ? 'failed' : 'degraded';
  return refusals.slice(0, 5).map(({ operator, text }) => ({ level, line: `${operator} refused us: ${text}`, hint }));
}
