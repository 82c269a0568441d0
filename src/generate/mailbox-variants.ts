/**
 * Postal-append queries by a plain email address with known truth (issue 30): one of a person's
 * addresses written another way, on a stream of its own (`${seed}/mailbox`).
 *
 * The truth is each provider's documented rule (src/people/mailbox-rules.ts names the sources),
 * restated here on its own rather than imported, so the evaluation does not grade the matcher's
 * code against itself: at Gmail dots and a `+tag` do not matter and googlemail.com is gmail.com;
 * at Outlook, Hotmail, Live, MSN, iCloud (icloud.com, me.com, mac.com) and Proton a `+tag` does
 * not; anywhere else (Yahoo, AOL, every other domain) the address is the mailbox. A variant that
 * is a stored address as written is not made; one equal to it after case and spaces expects its
 * holder; any other expects the person whose stored addresses reach its mailbox, or nobody when none does, or when
 * the addresses of two people do (naming one would be a guess).
 */
import { MAILBOX_KINDS, type MailboxKind } from './address-form-kinds.js';
import type { GeneratedPerson } from './people.js';
import { Rng } from './random.js';

export interface MailboxVariant {
  email: string;
  kind: MailboxKind;
  /** `person_id` postal append should answer with; absent when nobody. */
  expect?: string;
  from: string;
}

const TAGGED = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'protonmail.com',
]);
const DOTS_MATTER = new Set(['yahoo.com', 'outlook.com', 'hotmail.com', 'aol.com', 'icloud.com']);
const TAGS = ['news', 'shop', 'work', 'promo', 'x', '2024', 'amazon', 'bills'];

/** The mailbox an address reaches, by the providers' rules as restated above. */
function truthMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  if (TAGGED.has(domain) && local.includes('+')) local = local.slice(0, local.indexOf('+'));
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/**
 * @param people called twice: once to learn every stored address, once to draw the variants.
 * @param rate share of the people given a variant (default 0.3).
 */
export function* generateMailboxVariants(
  people: () => Iterable<GeneratedPerson>,
  options: { seed: string | number; rate?: number },
): Generator<MailboxVariant> {
  const owners = new Map<string, Set<string>>();
  const holder = new Map<string, string>();
  for (const { person } of people())
    for (const email of person.emails) {
      holder.set(email.trim().toLowerCase(), person.person_id);
      const mailbox = truthMailbox(email);
      let set = owners.get(mailbox);
      if (set === undefined) owners.set(mailbox, (set = new Set()));
      set.add(person.person_id);
    }
  const expected = (email: string): string | undefined => {
    const asWritten = holder.get(email.trim().toLowerCase());
    if (asWritten !== undefined) return asWritten;
    const set = owners.get(truthMailbox(email));
    return set?.size === 1 ? [...set][0] : undefined;
  };
  const rng = new Rng(`${String(options.seed)}/mailbox`);
  const rate = options.rate ?? 0.3;
  for (const { person } of people()) {
    if (person.emails.length === 0 || !rng.chance(rate)) continue;
    const email = rng.pick(person.emails);
    const kinds = MAILBOX_KINDS.filter((kind) => applies(kind, email));
    if (kinds.length === 0) continue;
    const kind = rng.pick(kinds);
    const written = rewrite(rng, kind, email);
    // A spelling somebody holds as written tests nothing of the mailbox rules: left out.
    if (written === undefined || written === email || holder.has(written)) continue;
    const owner = expected(written);
    yield { email: written, kind, ...(owner !== undefined ? { expect: owner } : {}), from: person.person_id };
  }
}

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1);
}

function applies(kind: MailboxKind, email: string): boolean {
  const domain = domainOf(email);
  switch (kind) {
    case 'mailbox-dots':
    case 'mailbox-googlemail':
      return domain === 'gmail.com';
    case 'mailbox-tag':
      return TAGGED.has(domain);
    case 'mailbox-case':
      return true;
    case 'mailbox-dots-elsewhere':
      return DOTS_MATTER.has(domain) && email.indexOf('@') >= 3;
  }
}

function rewrite(rng: Rng, kind: MailboxKind, email: string): string | undefined {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  switch (kind) {
    case 'mailbox-dots':
      return `${redot(rng, local)}@${domain}`;
    case 'mailbox-googlemail':
      return `${rng.chance(0.5) ? redot(rng, local) : local}@googlemail.com`;
    case 'mailbox-tag':
      return `${local}+${rng.pick(TAGS)}@${domain}`;
    case 'mailbox-case': {
      const upper = rng.chance(0.5)
        ? email.toUpperCase()
        : email.charAt(0).toUpperCase() + email.slice(1, at) + email.slice(at).toUpperCase();
      return ` ${upper} `;
    }
    case 'mailbox-dots-elsewhere':
      return `${redot(rng, local)}@${domain}`;
  }
}

/** The local part with its dots removed, or a dot put in where there is none (never first or last, never two in a row). */
function redot(rng: Rng, local: string): string {
  if (local.includes('.') && rng.chance(0.6)) return local.replaceAll('.', '');
  const spots: number[] = [];
  for (let i = 1; i < local.length; i++)
    if (local[i - 1] !== '.' && local[i] !== '.' && /[a-z0-9]/.test(local[i - 1]!) && /[a-z0-9]/.test(local[i]!)) spots.push(i);
  if (spots.length === 0) return local;
  const i = rng.pick(spots);
  return `${local.slice(0, i)}.${local.slice(i)}`;
}
