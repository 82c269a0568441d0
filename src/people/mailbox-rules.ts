/**
 * Which spellings of an address reach one mailbox, by ADDRESS DOMAIN (the part after the `@`),
 * never by MX: a company whose mail Google or Microsoft hosts (a custom domain) keeps its own
 * rules, and Google Workspace domains, for one, do not ignore dots. A domain is listed only where
 * the provider documents that the spellings are one mailbox; any other domain is left exactly as
 * written. Yahoo and AOL are deliberately absent: there dots and `-` make different mailboxes
 * (Yahoo's `-` is a disposable address that may belong to someone else's base name).
 *
 * Sources (provider documentation, read in 2026):
 * - Gmail, dots: Google, Gmail Help "Dots don't matter in Gmail addresses",
 *   https://support.google.com/mail/answer/7436150 ("you can add or remove the dots from a Gmail
 *   address without changing the actual destination address").
 * - Gmail, plus tags: Google, "Create task-specific email addresses",
 *   https://support.google.com/a/users/answer/9308648 (a `+` and any word before the `@`).
 * - googlemail.com: the domain Gmail addresses were issued under in Germany and the United
 *   Kingdom; Gmail Help says mail to `name@googlemail.com` and `name@gmail.com` reaches the same
 *   account. We found no stable page address for that statement, so it is named here by content.
 * - Outlook.com, Hotmail, Live, MSN: Microsoft, "Plus addressing in Exchange Online",
 *   https://learn.microsoft.com/en-us/exchange/recipients-in-exchange-online/plus-addressing-in-exchange-online
 *   (on by default; Outlook.com consumer mailboxes run on the same service). Dots there are
 *   significant.
 * - iCloud (icloud.com, me.com, mac.com): iCloud Mail delivers `name+tag@icloud.com` to
 *   `name@icloud.com` (receive only). Apple documents the three domains of one account in "About
 *   your @icloud.com, @me.com and @mac.com email addresses", https://support.apple.com/118230, but
 *   we found no Apple page on the `+` tag: this entry rests on observed delivery, the weakest
 *   source in the table. The domains are not folded into one: an account created after 2012 has
 *   no `@me.com` address.
 * - Fastmail: "Plus addressing and subdomain addressing",
 *   https://www.fastmail.help/hc/en-us/articles/360060591053 ("any email sent to
 *   username+whateveryoulike@domain.tld is still sent to your account").
 * - Proton (protonmail.com, protonmail.ch, proton.me, pm.me): Proton, "Types of email addresses
 *   and aliases", https://proton.me/support/addresses-and-aliases ("plus addressing: unlimited
 *   extra addresses using the + sign"). `pm.me` is only activated on request: not folded into the
 *   long domain.
 */

export interface MailboxRule {
  /** Dots in the local part do not matter. */
  ignoresDots: boolean;
  /** Everything from the first `+` to the `@` is a tag: `name+news` is `name`. */
  plusTags: boolean;
  /** The domain the mailbox is written under when another domain is the same (`googlemail.com` → `gmail.com`). */
  sameAs?: string;
}

const GMAIL: MailboxRule = { ignoresDots: true, plusTags: true };
const PLUS: MailboxRule = { ignoresDots: false, plusTags: true };

export const MAILBOX_RULES: ReadonlyMap<string, MailboxRule> = new Map([
  ['gmail.com', GMAIL],
  ['googlemail.com', { ...GMAIL, sameAs: 'gmail.com' }],
  ['outlook.com', PLUS],
  ['hotmail.com', PLUS],
  ['live.com', PLUS],
  ['msn.com', PLUS],
  ['icloud.com', PLUS],
  ['me.com', PLUS],
  ['mac.com', PLUS],
  ['fastmail.com', PLUS],
  ['fastmail.fm', PLUS],
  ['protonmail.com', PLUS],
  ['protonmail.ch', PLUS],
  ['proton.me', PLUS],
  ['pm.me', PLUS],
]);
