/**
 * The operator view (MAILSURE_ADMIN_TOKEN on the server): keys with usage and quotas, create and
 * revoke, prober health, the recent lists of every key, and the accuracy measured from ESP
 * outcomes. Its own sign-in with the admin token, kept in this tab's session only.
 */
import { Fragment } from 'preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createAdminApi, type AdminApi, type AdminHealth, type AdminKey, type AdminList, type AdminOutcomes } from './api.js';
import { SERVICES } from '../../src/accounts/key-config.js';
import { ListsTable } from './lists-table.js';
import { OutcomeAccuracy } from './outcome-accuracy.js';

const TOKEN = 'mailsure.adminToken';
const CONCERN_NAMES: [Exclude<keyof AdminHealth, 'smtp_egress_pool'>, string][] = [
  ['resolver', 'DNS resolver'],
  ['smtp_egress', 'SMTP egress (port 25)'],
  ['identity', 'Prober identity (HELO, PTR, block lists)'],
];

const message = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

function TokenForm({ onToken }: { onToken: (token: string) => void }) {
  const [token, setToken] = useState('');
  return (
    <form
      class="card"
      onSubmit={(e) => {
        e.preventDefault();
        onToken(token.trim());
      }}
    >
      <label for="admin-token">Admin token</label>
      <input
        id="admin-token"
        type="password"
        autoComplete="off"
        required
        value={token}
        onInput={(e) => setToken(e.currentTarget.value)}
        aria-describedby="admin-help"
      />
      <p id="admin-help" class="hint">
        The value of MAILSURE_ADMIN_TOKEN on the server. Kept in this browser tab only.
      </p>
      <button type="submit" disabled={token.trim() === ''}>
        Open the operator view
      </button>
    </form>
  );
}

function Health({ health }: { health: AdminHealth }) {
  return (
    <section class="card" aria-labelledby="health-title">
      <h2 id="health-title">Prober health</h2>
      <p data-mailbox={health.mailbox_verification}>
        Mailbox verification: <strong>{health.mailbox_verification ?? 'not reported'}</strong>
      </p>
      <dl class="facts">
        {CONCERN_NAMES.map(([name, label]) => {
          const concern = health[name] as AdminHealth['resolver'];
          if (!concern) return null;
          return (
            <Fragment key={name}>
              <dt>{label}</dt>
              <dd data-concern={name} data-state={concern.state}>
                <span class={`state state-${concern.state === 'ok' ? 'results' : concern.state === 'failed' ? 'error' : 'processed'}`}>
                  {concern.state}
                </span>{' '}
                {concern.evidence.join('; ')}
                {concern.hint && <span class="hint"> — {concern.hint}</span>}
              </dd>
            </Fragment>
          );
        })}
      </dl>
      {health.smtp_egress_pool && health.smtp_egress_pool.length > 0 && (
        <>
          <h3>
            SMTP egresses: {health.smtp_egress_pool.filter((e) => e.healthy).length} of {health.smtp_egress_pool.length} in rotation
          </h3>
          <ul class="egresses">
            {health.smtp_egress_pool.map((egress) => (
              <li key={egress.label} data-egress={egress.label} data-healthy={String(egress.healthy)}>
                <span class={`state state-${egress.healthy ? 'results' : 'error'}`}>
                  {egress.healthy ? 'in rotation' : 'out of rotation'}
                </span>{' '}
                {egress.label} ({egress.way}){egress.detail && <span class="hint"> — {egress.detail}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function CreateKey({ api, onCreated }: { api: AdminApi; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [services, setServices] = useState<string[]>(['verification', 'lists']);
  const [quota, setQuota] = useState('');
  const [evidence, setEvidence] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string; webhookSecret: string } | null>(null);
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    setError('');
    setCreated(null);
    try {
      const answer = await api.createKey({ name: name.trim(), services, ...(quota ? { quota } : {}), ...(evidence ? { evidence } : {}) });
      setCreated({ name: answer.name, key: answer.key, webhookSecret: answer.webhook_secret });
      setName('');
      onCreated();
    } catch (failure) {
      setError(message(failure));
    }
  };
  const toggle = (service: string, on: boolean) => setServices((s) => (on ? [...s, service] : s.filter((x) => x !== service)));
  return (
    <form class="card" onSubmit={submit} aria-labelledby="create-title">
      <h2 id="create-title">Create a key</h2>
      <label for="key-name">Name</label>
      <input id="key-name" type="text" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <fieldset class="services">
        <legend>Services</legend>
        {SERVICES.map((service) => (
          <label class="check" key={service}>
            <input type="checkbox" checked={services.includes(service)} onChange={(e) => toggle(service, e.currentTarget.checked)} />{' '}
            {service}
          </label>
        ))}
      </fieldset>
      <label for="key-quota">Quota (calls in all; empty: unlimited)</label>
      <input id="key-quota" type="number" min={0} value={quota} onInput={(e) => setQuota(e.currentTarget.value)} />
      <label class="check">
        <input type="checkbox" checked={evidence} onChange={(e) => setEvidence(e.currentTarget.checked)} /> evidence{' '}
        <span class="hint">— may ask for the SMTP and DNS evidence behind a verdict (explain=true)</span>
      </label>
      <p>
        <button type="submit" disabled={name.trim() === '' || services.length === 0}>
          Create key
        </button>
      </p>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {created && (
        <div role="status" class="ok">
          <p>Key {created.name} created. Copy both now: neither is shown again.</p>
          <dl class="facts">
            <dt>API key</dt>
            <dd>
              <code data-new-key>{created.key}</code>
            </dd>
            <dt>Webhook secret</dt>
            <dd>
              <code data-new-webhook-secret>{created.webhookSecret}</code>
              <span class="hint"> — checks the X-Mailsure-Signature of this key’s list callbacks</span>
            </dd>
          </dl>
        </div>
      )}
    </form>
  );
}

function KeysTable({ keys, onRevoke }: { keys: AdminKey[]; onRevoke: (name: string) => void }) {
  const [confirm, setConfirm] = useState<string | null>(null);
  return (
    <section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      <div class="table-scroll">
        <table class="lists">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Services</th>
              <th scope="col">Calls used / quota</th>
              <th scope="col">Usage</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((key) => (
              <tr key={key.name} data-key-name={key.name}>
                <td>
                  {key.name} <span class="hint">{key.key_prefix}…</span>
                </td>
                <td>
                  {key.services.join(', ')}
                  {key.evidence && <span class="hint"> + evidence</span>}
                </td>
                <td>
                  {key.calls_used.toLocaleString('en')} / {key.quota === null ? 'unlimited' : key.quota.toLocaleString('en')}
                </td>
                <td class="hint">
                  {Object.entries(key.usage ?? {})
                    .filter(([, n]) => n > 0)
                    .map(([unit, n]) => `${unit.replace(/_/g, ' ')}: ${n.toLocaleString('en')}`)
                    .join(', ') || 'none yet'}
                </td>
                <td>
                  <time dateTime={key.created_at}>{new Date(key.created_at).toLocaleDateString('en')}</time>
                </td>
                <td>
                  {key.revoked_at ? (
                    <span class="state state-cancelled" data-state="revoked">
                      revoked
                    </span>
                  ) : confirm === key.name ? (
                    <span role="group" aria-label={`Confirm revoking ${key.name}`}>
                      <button type="button" class="danger" onClick={() => onRevoke(key.name)}>
                        Yes, revoke {key.name}
                      </button>{' '}
                      <button type="button" class="secondary" onClick={() => setConfirm(null)}>
                        Keep it
                      </button>
                    </span>
                  ) : (
                    <button type="button" class="secondary" onClick={() => setConfirm(key.name)} aria-label={`Revoke ${key.name}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function RecentLists({ lists }: { lists: AdminList[] }) {
  return (
    <section class="card" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent lists of all keys</h2>
      {lists.length === 0 ? <p>No lists yet.</p> : <ListsTable lists={lists} linked={false} withKey />}
    </section>
  );
}

export function OperatorPage() {
  const [token, setToken] = useState<string | null>(() => sessionStorage.getItem(TOKEN));
  const api = useMemo(() => (token ? createAdminApi(token) : null), [token]);
  const [keys, setKeys] = useState<AdminKey[] | null>(null);
  const [health, setHealth] = useState<AdminHealth | null>(null);
  const [lists, setLists] = useState<AdminList[] | null>(null);
  const [outcomes, setOutcomes] = useState<AdminOutcomes | null>(null);
  const [error, setError] = useState('');

  const load = useCallback(async () => {
    if (!api) return;
    try {
      const [k, h, l, o] = await Promise.all([api.keys(), api.health(), api.lists(), api.outcomes()]);
      setKeys(k);
      setHealth(h);
      setLists(l);
      setOutcomes(o);
      setError('');
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404)
        setError('The operator view is off: set MAILSURE_ADMIN_TOKEN on the server and restart it.');
      else setError(message(failure));
      if (failure instanceof ApiError && (failure.status === 401 || failure.status === 404)) {
        sessionStorage.removeItem(TOKEN);
        setToken(null);
      }
    }
  }, [api]);
  useEffect(() => void load(), [load]);

  const revoke = async (name: string) => {
    try {
      await api!.revokeKey(name);
      await load();
    } catch (failure) {
      setError(message(failure));
    }
  };

  return (
    <>
      <h1>Operator</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {!api && (
        <TokenForm
          onToken={(t) => {
            sessionStorage.setItem(TOKEN, t);
            setToken(t);
          }}
        />
      )}
      {api && (
        <>
          <p>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                sessionStorage.removeItem(TOKEN);
                setToken(null);
              }}
            >
              Leave the operator view
            </button>
          </p>
          {health && <Health health={health} />}
          {keys && <KeysTable keys={keys} onRevoke={(name) => void revoke(name)} />}
          <CreateKey api={api} onCreated={() => void load()} />
          {lists && <RecentLists lists={lists} />}
          {outcomes && <OutcomeAccuracy outcomes={outcomes} />}
        </>
      )}
    </>
  );
}
