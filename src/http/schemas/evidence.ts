/** The `evidence` object of /v5/ev with `explain=true` (verification/render-evidence.ts); also its allow-list. */
import { Type } from 'typebox';

const Level = Type.Union(['ok', 'degraded', 'failed', 'unknown'].map((s) => Type.Literal(s)));

const Stage = Type.Object(
  {
    stage: Type.Union(
      ['syntax', 'typo', 'lists', 'domain-name', 'prober-health', 'dns', 'provider', 'verdict-memory', 'catch-all', 'mailbox'].map((s) =>
        Type.Literal(s),
      ),
      { description: 'The stage, in the order the pipeline ran them; the other fields are those of its kind' },
    ),
    result: Type.Optional(Type.String({ description: 'syntax: ok or invalid; domain-name: disposable or dangerous-mailbox' })),
    reason: Type.Optional(Type.String({ description: "syntax: the fault in words; dns: the resolver's failure" })),
    domain: Type.Optional(Type.String({ description: "typo: the large provider's misspelt domain" })),
    owner: Type.Optional(
      Type.Union([Type.Literal('key'), Type.Literal('shared')], {
        description:
          "lists: the key's own lists (its suppressions and exceptions, or the bouncers and complainers its ESP's outcomes taught it) or the shared policy lists",
      }),
    ),
    list: Type.Optional(
      Type.String({
        description: 'lists: the list that matched (exception, suppression, trap, complainer, optout, do_not_email, bouncer)',
      }),
    ),
    matched: Type.Optional(
      Type.Union([Type.Literal('address'), Type.Literal('domain')], {
        description: 'lists: whether the address or its whole domain is listed',
      }),
    ),
    resolver: Type.Optional(Level),
    smtp_egress: Type.Optional(Level),
    identity: Type.Optional(Level),
    route: Type.Optional(
      Type.String({ description: 'dns: mx, implicit (no MX, the domain itself), null-mx, nxdomain, no-mail, unavailable' }),
    ),
    mx: Type.Optional(Type.Array(Type.Object({ host: Type.String(), preference: Type.Integer() }))),
    hosts: Type.Optional(
      Type.Array(
        Type.Object({
          host: Type.String(),
          answer: Type.String({ description: 'addresses, nxdomain, none, unavailable' }),
          addresses: Type.Optional(Type.Array(Type.String())),
          ttl_seconds: Type.Optional(Type.Integer({ description: 'As the resolver gave it (a cached answer keeps the TTL it came with)' })),
        }),
      ),
    ),
    profile: Type.Optional(Type.String({ description: "provider: the provider profile's id" })),
    rcpt: Type.Optional(Type.String({ description: 'provider: what its RCPT replies can prove (mailbox, refusals-only, none)' })),
    rule: Type.Optional(Type.String({ description: 'verdict-memory: the rule that gave the remembered verdict' })),
    remembered_at: Type.Optional(Type.String({ format: 'date-time' })),
    known: Type.Optional(Type.String({ description: "catch-all: the domain's cached fact before probing (yes, no, unknown)" })),
    learnt: Type.Optional(Type.String({ description: 'catch-all: what the random local part taught' })),
    outcome: Type.Optional(Type.String({ description: "mailbox: the probe's outcome, or the address's reply and its class" })),
    attempt: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

const Step = Type.Object(
  {
    command: Type.Optional(Type.String({ description: 'As sent; absent for the greeting and for a reply nobody asked for' })),
    role: Type.Optional(
      Type.Union([Type.Literal('our-sender'), Type.Literal('address'), Type.Literal('catch-all-probe')], {
        description:
          'our-sender: our MAIL FROM; address: the address asked about; catch-all-probe: the random local part that tests whether the domain accepts everyone',
      }),
    ),
    code: Type.Optional(Type.Integer({ description: 'The reply; absent when none came' })),
    enhanced: Type.Optional(Type.String({ description: 'RFC 3463 enhanced status code, when the reply had one' })),
    text: Type.Optional(Type.String()),
    at_ms: Type.Integer({ description: "Milliseconds from the connection's start" }),
    took_ms: Type.Optional(Type.Integer({ description: 'Milliseconds from the command to its reply' })),
  },
  { additionalProperties: false },
);

export const Evidence = Type.Object(
  {
    rule: Type.String({ description: 'The rule that decided (docs/verification.md, "Rules")' }),
    rule_summary: Type.String(),
    rule_doc: Type.String({ description: "The rule's section, relative to the repository" }),
    reason: Type.Optional(
      Type.String({ description: 'One line, when the verdict proves nothing either way (unknown, 20, a verdict our own network limited)' }),
    ),
    stages: Type.Array(Stage),
    smtp: Type.Array(
      Type.Object(
        {
          host: Type.String({ description: 'The MX host tried' }),
          address: Type.Optional(Type.String({ description: 'Its address that answered' })),
          egress: Type.String({ description: 'Our egress as an opaque label (never an address or a credential)' }),
          tls: Type.Optional(Type.Boolean()),
          attempt: Type.Integer({ description: '1, or 2 for the one retry after a temporary reply' }),
          joined: Type.Optional(
            Type.Literal(true, { description: 'Read from a concurrent probe of the same address, not asked by this call' }),
          ),
          transcript: Type.Array(Step, {
            description: "This call's part of the conversation: the session's own commands and this call's RCPTs only",
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { description: 'With explain=true, for keys with the evidence permission: why the verdict is what it is', additionalProperties: false },
);
