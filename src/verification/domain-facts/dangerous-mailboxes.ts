// Clearly dangerous mailboxes (code 500, invalid): names that no person signs up with and whose
// readers report senders. Mail to them earns complaints and blocklist entries, so the address is
// refused outright, unlike an ordinary role account (info@, sales@), which is only flagged.
//
// The list is short on purpose: code 500 calls an address invalid, and decisions §4 allows that
// only on proof. Left out, with reasons:
// - webmaster, security, admin, root: role mailboxes, sometimes the only contact of a small
//   business; they stay deliverable and are flagged as role accounts.
// - nobody, noreply: not dangerous, merely pointless; role flag.

const DANGEROUS: ReadonlySet<string> = new Set([
  // RFC 2142 §4: where abuse of a domain's network is reported; read by the people who file
  // blocklist and ISP complaints.
  'abuse',
  // RFC 5321 §4.5.1 (and RFC 2142 §5): every mail domain must have one; administrators handle
  // delivery problems and complaints here.
  'postmaster',
  // RFC 2142 §5: DNS administration, listed in SOA records; harvested and trapped.
  'hostmaster',
  // RFC 2142 §4: network operations; the operators who block sources.
  'noc',
  // The conventional sender of bounces (the MTA itself); never a person.
  'mailer-daemon',
  // Complaint drop boxes: the local part of reporting addresses such as spam@uce.gov.
  'spam',
  'spamtrap',
  'spam-trap',
]);

/**
 * `localPart` as a person reads it (unquoted). Case and a `+tag` do not change the mailbox:
 * `Abuse+x` is still abuse@.
 */
export function isDangerousMailbox(localPart: string): boolean {
  const plus = localPart.indexOf('+');
  const name = (plus === -1 ? localPart : localPart.slice(0, plus)).toLowerCase();
  return DANGEROUS.has(name);
}

export const DANGEROUS_MAILBOXES: readonly string[] = [...DANGEROUS];
