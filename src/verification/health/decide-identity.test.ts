import { describe, expect, it } from 'vitest';
import type { AddressAnswer, MailRoute } from '../dns/mail-route.js';
import { decideIdentity, type IdentityEvidence } from './decide-identity.js';
import { worse, type HealthLevel } from './health-state.js';

const NOW = 1_700_000_000_000;
const IP = '198.51.100.7';
const HELO = 'probe.example.net';
const addrs = (...addresses: string[]): AddressAnswer => ({ kind: 'addresses', addresses, ttlSeconds: 300 });
const RESOLVES = addrs(IP);

type Egress = NonNullable<IdentityEvidence['egress']>;

function egress(over: Partial<Egress> = {}): Egress {
  return { ip: IP, ptr: [HELO], forward: { [HELO]: addrs(IP) }, blocklists: [], ...over };
}

function decide(over: Partial<IdentityEvidence> = {}) {
  return decideIdentity({ helo: { name: HELO, answer: RESOLVES }, refusals: [], ...over }, NOW);
}

const HELO_HINT =
  'set MAILSURE_SMTP_HELO to a fully qualified name whose A record is the egress address, and the PTR of that address to the same name';
const PTR_HINT = `set the PTR record of ${IP} to ${HELO} (at the provider of the address), with an A record back to ${IP}`;

describe('decideIdentity: HELO name', () => {
  it('degrades a HELO name that is not fully qualified', () => {
    const health = decide({ helo: { name: 'localhost', answer: { kind: 'none' } } });
    expect(health.state).toBe('degraded');
    expect(health.evidence[0]).toBe('HELO name "localhost" is not a fully qualified domain name');
    expect(health.hint).toBe(HELO_HINT);
  });

  it('degrades a HELO name that does not resolve', () => {
    for (const answer of [{ kind: 'none' }, { kind: 'nxdomain' }] as AddressAnswer[]) {
      const health = decide({ helo: { name: HELO, answer } });
      expect(health.state).toBe('degraded');
      expect(health.evidence[0]).toBe(`HELO name ${HELO} does not resolve`);
      expect(health.hint).toBe(HELO_HINT);
    }
  });

  it('is unknown, without a hint, when DNS did not answer for the HELO name', () => {
    const health = decide({ helo: { name: HELO, answer: { kind: 'unavailable', reason: 'ETIMEOUT' } } });
    expect(health.state).toBe('unknown');
    expect(health.evidence[0]).toBe(`HELO name ${HELO}: no DNS answer (ETIMEOUT)`);
    expect(health).not.toHaveProperty('hint');
  });

  it('is ok when the HELO name resolves, listing at most three addresses', () => {
    const health = decide({ helo: { name: HELO, answer: addrs('192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4') } });
    expect(health).toEqual({
      state: 'ok',
      evidence: [
        `HELO name ${HELO} resolves to 192.0.2.1, 192.0.2.2, 192.0.2.3`,
        'egress address not given (MAILSURE_SMTP_EGRESS_IP): reverse DNS and block lists not checked',
      ],
      checkedAt: NOW,
    });
  });
});

describe('decideIdentity: reverse DNS', () => {
  it('is unknown when the PTR query got no answer', () => {
    const health = decide({ egress: egress({ ptr: null, forward: {} }) });
    expect(health.state).toBe('unknown');
    expect(health.evidence[1]).toBe(`reverse DNS of ${IP}: no answer`);
  });

  it('degrades an address without PTR record', () => {
    const health = decide({ egress: egress({ ptr: [], forward: {} }) });
    expect(health.state).toBe('degraded');
    expect(health.evidence[1]).toBe(`${IP} has no PTR record`);
    expect(health.hint).toBe(PTR_HINT);
  });

  it('degrades a PTR name that does not resolve back to the address', () => {
    const forwards: Record<string, AddressAnswer>[] = [
      {},
      { [HELO]: addrs('192.0.2.99') },
      { [HELO]: { kind: 'nxdomain' } },
      { [HELO]: { kind: 'unavailable', reason: 'x' } },
    ];
    for (const forward of forwards) {
      const health = decide({ egress: egress({ ptr: [HELO], forward }) });
      expect(health.state).toBe('degraded');
      expect(health.evidence[1]).toBe(`PTR of ${IP} is ${HELO}, which does not resolve back to it`);
      expect(health.hint).toBe(PTR_HINT);
    }
  });

  it('degrades a confirmed PTR that is not the HELO name, and suggests that name as HELO', () => {
    const health = decide({
      egress: egress({
        ptr: ['other.example.net', 'host.example.org'],
        forward: { 'other.example.net': addrs('192.0.2.1'), 'host.example.org': addrs('192.0.2.1', IP) },
      }),
    });
    expect(health.state).toBe('degraded');
    expect(health.evidence[1]).toBe(`PTR of ${IP} is host.example.org, not the HELO name ${HELO}`);
    expect(health.hint).toBe('set MAILSURE_SMTP_HELO=host.example.org (the confirmed PTR name)');
  });

  it('is ok with forward-confirmed reverse DNS equal to the HELO name, whatever the case', () => {
    const health = decide({
      helo: { name: 'Probe.Example.NET', answer: RESOLVES },
      egress: egress({ ptr: ['probe.example.net'], forward: { 'probe.example.net': addrs(IP) } }),
    });
    expect(health.state).toBe('ok');
    expect(health.evidence[1]).toBe(`forward-confirmed reverse DNS: ${IP} ⇄ Probe.Example.NET`);
    expect(health).not.toHaveProperty('hint');
  });
});

describe('decideIdentity: block lists', () => {
  const zone = 'zen.spamhaus.org';

  it('fails an address a list answers for', () => {
    const health = decide({ egress: egress({ blocklists: [{ zone, answer: addrs('127.0.0.2') }] }) });
    expect(health.state).toBe('failed');
    expect(health.evidence[2]).toBe(`${IP} is listed on ${zone} (127.0.0.2)`);
    expect(health.hint).toBe(
      `${IP} is on a block list: providers will refuse probes from it; request delisting at ${zone}'s operator or probe from another address`,
    );
  });

  it('treats 127.255.255.x answers as a refused query, not a listing', () => {
    const health = decide({ egress: egress({ blocklists: [{ zone, answer: addrs('127.255.255.254') }] }) });
    expect(health.state).toBe('unknown');
    expect(health.evidence[2]).toBe(`${zone}: the list refused the query (127.255.255.254); public resolvers are often refused`);
    expect(health).not.toHaveProperty('hint');
  });

  it('counts a listing code mixed with a refusal code as a listing', () => {
    expect(decide({ egress: egress({ blocklists: [{ zone, answer: addrs('127.255.255.254', '127.0.0.4') }] }) }).state).toBe('failed');
  });

  it('is ok when the list says NXDOMAIN or nothing', () => {
    for (const answer of [{ kind: 'nxdomain' }, { kind: 'none' }] as AddressAnswer[]) {
      const health = decide({ egress: egress({ blocklists: [{ zone, answer }] }) });
      expect(health.state).toBe('ok');
      expect(health.evidence[2]).toBe(`not listed on ${zone}`);
    }
  });

  it('is unknown when the list did not answer', () => {
    const health = decide({ egress: egress({ blocklists: [{ zone, answer: { kind: 'unavailable', reason: 'ESERVFAIL' } }] }) });
    expect(health.state).toBe('unknown');
    expect(health.evidence[2]).toBe(`${zone}: no answer (ESERVFAIL)`);
  });

  it('keeps one line per list, in order', () => {
    const health = decide({
      egress: egress({
        blocklists: [
          { zone: 'a.example', answer: { kind: 'nxdomain' } },
          { zone: 'b.example', answer: addrs('127.0.0.3') },
        ],
      }),
    });
    expect(health.evidence.slice(2)).toEqual(['not listed on a.example', `${IP} is listed on b.example (127.0.0.3)`]);
  });
});

describe('decideIdentity: refusals seen in real probes', () => {
  const REFUSAL_HINT =
    'providers refuse this prober itself (its address, PTR or HELO): check the block lists and reverse DNS above, or probe from another address';

  it('is ok without refusals', () => {
    expect(decide({ refusals: [] }).state).toBe('ok');
  });

  it('degrades on one operator refusing us, with its text', () => {
    const health = decide({ refusals: [{ operator: 'a.com', text: '554 client host blocked' }] });
    expect(health.state).toBe('degraded');
    expect(health.evidence.at(-1)).toBe('a.com refused us: 554 client host blocked');
    expect(health.hint).toBe(REFUSAL_HINT);
  });

  it('fails on two or more operators refusing us', () => {
    for (const n of [2, 3, 7]) {
      const refusals = Array.from({ length: n }, (_, i) => ({ operator: `op${i}.com`, text: 'your IP is listed' }));
      const health = decide({ refusals });
      expect(health.state).toBe('failed');
      expect(health.hint).toBe(REFUSAL_HINT);
      expect(health.evidence.filter((l) => l.includes('refused us'))).toHaveLength(Math.min(n, 5));
    }
  });
});

describe('decideIdentity: combined findings', () => {
  it('takes the worst level and the hint of the first finding at that level', () => {
    const listed = decide({
      helo: { name: 'localhost', answer: { kind: 'none' } },
      egress: egress({ ptr: [], forward: {}, blocklists: [{ zone: 'bl.example', answer: addrs('127.0.0.2') }] }),
      refusals: [
        { operator: 'a.com', text: 'x' },
        { operator: 'b.com', text: 'y' },
      ],
    });
    expect(listed.state).toBe('failed');
    expect(listed.hint).toMatch(/is on a block list/);

    const degraded = decide({ helo: { name: 'localhost', answer: { kind: 'none' } }, egress: egress({ ptr: null, forward: {} }) });
    expect(degraded.state).toBe('degraded');
    expect(degraded.hint).toBe(HELO_HINT);

    const unknownOverOk = decide({
      egress: egress({ blocklists: [{ zone: 'bl.example', answer: { kind: 'unavailable', reason: 'x' } }] }),
    });
    expect(unknownOverOk.state).toBe('unknown');
    expect(unknownOverOk).not.toHaveProperty('hint');
    expect(unknownOverOk.checkedAt).toBe(NOW);
  });

  it('orders levels failed > degraded > unknown > ok', () => {
    const order: HealthLevel[] = ['ok', 'unknown', 'degraded', 'failed'];
    for (const [i, a] of order.entries()) {
      for (const [j, b] of order.entries()) expect(worse(a, b)).toBe(order[Math.max(i, j)]);
    }
  });
});

describe('decideIdentity: our MAIL FROM', () => {
  const HINT =
    'receivers that verify senders refuse MAIL FROM <verify@build-7.example.com> (and answer about our sender, never the recipient): set MAILSURE_SMTP_FROM=<> (the null sender) or to an address at a domain you control with an MX record';
  const mxRoute: MailRoute = { kind: 'mx', hosts: [{ name: 'mx.example.net', priority: 10 }] };

  it('is content with the null sender, and with a domain that has an MX or an address', () => {
    expect(decide({ sender: { address: '' } })).toMatchObject({
      state: 'ok',
      evidence: expect.arrayContaining([
        "MAIL FROM is the null sender <>, as MTAs' own callouts send: no sender domain for a receiver to verify",
      ]),
    });
    expect(decide({ sender: { address: 'verify@example.net', route: mxRoute } }).evidence).toContain(
      'MAIL FROM domain example.net has MX mx.example.net',
    );
    expect(
      decide({ sender: { address: 'verify@example.net', route: { kind: 'implicit', hosts: [{ name: 'example.net', priority: 0 }] } } })
        .state,
    ).toBe('ok');
  });

  it('degrades a MAIL FROM domain that has no MX and no address, with the fix', () => {
    for (const [route, why] of [
      [{ kind: 'nxdomain' }, 'no such name in DNS'],
      [{ kind: 'no-mail' }, 'no MX and no A record'],
      [{ kind: 'null-mx' }, 'a null MX (it accepts no mail)'],
    ] as const) {
      const health = decide({ sender: { address: 'verify@build-7.example.com', route } });
      expect(health.state).toBe('degraded');
      expect(health.evidence).toContain(`MAIL FROM domain build-7.example.com has ${why}: receivers that verify senders will refuse it`);
      expect(health.hint).toBe(HINT);
    }
  });

  it('is unknown, not degraded, when DNS did not answer', () => {
    const health = decide({ sender: { address: 'verify@example.net', route: { kind: 'unavailable', reason: 'SERVFAIL' } } });
    expect(health.state).toBe('unknown');
    expect(health.evidence).toContain('MAIL FROM domain example.net: no DNS answer (SERVFAIL)');
  });
});
