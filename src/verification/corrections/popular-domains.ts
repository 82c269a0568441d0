// Mail domains that typos are corrected towards, with a rough popularity weight used as a prior
// to break ties (`r` → `ru` before `ro`; `gmal` → gmail before anything rarer). The weights are our
// own order-of-magnitude estimates of each domain's share of consumer mailboxes (relative, gmail.com
// = 1000), not measurements; only their order matters.
//
// Every domain listed here is also protected: an address at it is never "corrected" to another
// one, which is why the regional domains of the big providers are listed (yahoo.fr, hotmail.co.uk,
// gmx.fr are real, not typos of yahoo.com or gmx.com).
//
// `brand` marks providers whose second-level name under another generic TLD is a typo of the main
// domain (gmail.net, aol.net, icloud.co → .com). Names that are also ordinary words or that other
// companies hold under other TLDs (live, mail, att, verizon) are not brands in this sense.

export interface PopularDomain {
  domain: string;
  weight: number;
  brand?: true;
  /** One domain worldwide: `gmail.com.co` is gmail.com with a TLD appended, not a country copy. */
  global?: true;
}

export const POPULAR_DOMAINS: readonly PopularDomain[] = [
  // Google
  { domain: 'gmail.com', global: true, weight: 1000, brand: true },
  { domain: 'googlemail.com', global: true, weight: 40, brand: true },
  // Yahoo
  { domain: 'yahoo.com', weight: 400, brand: true },
  { domain: 'ymail.com', global: true, weight: 20, brand: true },
  { domain: 'rocketmail.com', weight: 5, brand: true },
  { domain: 'yahoo.co.uk', weight: 25 },
  { domain: 'yahoo.fr', weight: 15 },
  { domain: 'yahoo.de', weight: 8 },
  { domain: 'yahoo.it', weight: 8 },
  { domain: 'yahoo.es', weight: 8 },
  { domain: 'yahoo.ca', weight: 8 },
  { domain: 'yahoo.co.in', weight: 10 },
  { domain: 'yahoo.in', weight: 3 },
  { domain: 'yahoo.co.jp', weight: 10 },
  { domain: 'yahoo.com.br', weight: 10 },
  { domain: 'yahoo.com.ar', weight: 4 },
  { domain: 'yahoo.com.mx', weight: 5 },
  { domain: 'yahoo.com.au', weight: 4 },
  { domain: 'yahoo.gr', weight: 2 },
  // Microsoft
  { domain: 'hotmail.com', weight: 300, brand: true },
  { domain: 'outlook.com', weight: 200, brand: true },
  { domain: 'live.com', weight: 80 },
  { domain: 'msn.com', weight: 40 },
  { domain: 'hotmail.co.uk', weight: 25 },
  { domain: 'hotmail.fr', weight: 20 },
  { domain: 'hotmail.de', weight: 5 },
  { domain: 'hotmail.it', weight: 8 },
  { domain: 'hotmail.es', weight: 8 },
  { domain: 'hotmail.ca', weight: 5 },
  { domain: 'hotmail.be', weight: 3 },
  { domain: 'hotmail.nl', weight: 3 },
  { domain: 'hotmail.com.br', weight: 8 },
  { domain: 'hotmail.com.ar', weight: 4 },
  { domain: 'hotmail.com.mx', weight: 3 },
  { domain: 'live.co.uk', weight: 5 },
  { domain: 'live.fr', weight: 8 },
  { domain: 'live.nl', weight: 3 },
  { domain: 'live.it', weight: 3 },
  { domain: 'live.de', weight: 2 },
  { domain: 'live.ca', weight: 3 },
  { domain: 'live.com.au', weight: 2 },
  { domain: 'live.com.mx', weight: 2 },
  { domain: 'outlook.fr', weight: 5 },
  { domain: 'outlook.de', weight: 3 },
  { domain: 'outlook.es', weight: 3 },
  { domain: 'outlook.it', weight: 2 },
  { domain: 'outlook.com.br', weight: 2 },
  // AOL, Apple
  { domain: 'aol.com', weight: 100, brand: true },
  { domain: 'aim.com', weight: 3 },
  { domain: 'aol.co.uk', weight: 2 },
  { domain: 'aol.fr', weight: 1 },
  { domain: 'aol.de', weight: 1 },
  { domain: 'icloud.com', global: true, weight: 120, brand: true },
  { domain: 'me.com', weight: 30 },
  { domain: 'mac.com', weight: 15 },
  // US ISPs
  { domain: 'comcast.net', weight: 60 },
  { domain: 'verizon.net', weight: 20 },
  { domain: 'att.net', weight: 30 },
  { domain: 'sbcglobal.net', weight: 20 },
  { domain: 'bellsouth.net', weight: 10 },
  { domain: 'cox.net', weight: 10 },
  { domain: 'charter.net', weight: 8 },
  { domain: 'earthlink.net', weight: 5 },
  { domain: 'optonline.net', weight: 5 },
  { domain: 'roadrunner.com', weight: 3 },
  { domain: 'frontier.com', weight: 3 },
  { domain: 'windstream.net', weight: 3 },
  { domain: 'juno.com', weight: 3 },
  { domain: 'netzero.net', weight: 2 },
  // Canada, UK, Australia, New Zealand
  { domain: 'shaw.ca', weight: 5 },
  { domain: 'rogers.com', weight: 5 },
  { domain: 'sympatico.ca', weight: 3 },
  { domain: 'telus.net', weight: 3 },
  { domain: 'btinternet.com', weight: 15 },
  { domain: 'virginmedia.com', weight: 5 },
  { domain: 'sky.com', weight: 8 },
  { domain: 'talktalk.net', weight: 3 },
  { domain: 'ntlworld.com', weight: 3 },
  { domain: 'bigpond.com', weight: 5 },
  { domain: 'optusnet.com.au', weight: 3 },
  { domain: 'xtra.co.nz', weight: 3 },
  // Privacy-minded and independent providers
  { domain: 'protonmail.com', global: true, weight: 30, brand: true },
  { domain: 'proton.me', weight: 20 },
  { domain: 'pm.me', weight: 3 },
  { domain: 'zoho.com', weight: 10, brand: true },
  { domain: 'fastmail.com', weight: 5 },
  { domain: 'tutanota.com', weight: 3 },
  { domain: 'mail.com', weight: 10 },
  { domain: 'email.com', weight: 2 },
  // Europe
  { domain: 'gmx.com', weight: 20 },
  { domain: 'gmx.de', weight: 30 },
  { domain: 'gmx.net', weight: 30 },
  { domain: 'gmx.at', weight: 5 },
  { domain: 'gmx.ch', weight: 3 },
  { domain: 'gmx.fr', weight: 3 },
  { domain: 'web.de', weight: 30 },
  { domain: 't-online.de', weight: 20 },
  { domain: 'freenet.de', weight: 5 },
  { domain: 'orange.fr', weight: 20 },
  { domain: 'wanadoo.fr', weight: 10 },
  { domain: 'free.fr', weight: 15 },
  { domain: 'sfr.fr', weight: 10 },
  { domain: 'laposte.net', weight: 10 },
  { domain: 'libero.it', weight: 10 },
  { domain: 'virgilio.it', weight: 5 },
  { domain: 'tiscali.it', weight: 3 },
  { domain: 'seznam.cz', weight: 5 },
  { domain: 'wp.pl', weight: 5 },
  { domain: 'o2.pl', weight: 3 },
  { domain: 'onet.pl', weight: 3 },
  { domain: 'interia.pl', weight: 3 },
  // Russia and Ukraine
  { domain: 'mail.ru', weight: 40 },
  { domain: 'yandex.ru', weight: 40 },
  { domain: 'yandex.com', weight: 5 },
  { domain: 'ya.ru', weight: 5 },
  { domain: 'bk.ru', weight: 5 },
  { domain: 'inbox.ru', weight: 5 },
  { domain: 'list.ru', weight: 5 },
  { domain: 'rambler.ru', weight: 5 },
  { domain: 'ukr.net', weight: 3 },
  // Asia and Latin America
  { domain: 'qq.com', weight: 80 },
  { domain: '163.com', weight: 40 },
  { domain: '126.com', weight: 20 },
  { domain: 'sina.com', weight: 10 },
  { domain: 'naver.com', weight: 15 },
  { domain: 'daum.net', weight: 5 },
  { domain: 'hanmail.net', weight: 8 },
  { domain: 'rediffmail.com', weight: 5 },
  { domain: 'uol.com.br', weight: 5 },
  { domain: 'bol.com.br', weight: 3 },
  { domain: 'terra.com.br', weight: 3 },
];

/**
 * Real domains one slip away from a popular one, which must not be "corrected" towards it. Each is
 * an organisation's own mail domain, not a mailbox provider, so no provider list carries it.
 */
export const NOT_TYPOS: readonly string[] = [
  'gm.com', // General Motors, not gmx.com
  'google.com', // Google's corporate domain, not gmail.com
  'yahoo-inc.com', // Yahoo's corporate domain
  'microsoft.com',
  'apple.com',
  'verizon.com', // Verizon's corporate domain; verizon.net is its mail service
  'comcast.com',
  'att.com',
  'facebook.com',
];
