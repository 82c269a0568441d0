/** Verify one address, and look one person up by address: the API's answer, explained in words. */
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import type { Api, AppendAnswer, VerifyAnswer } from './api.js';
import { CODE_MEANINGS } from './codes.js';
import { EvidenceTimeline } from './evidence-timeline.js';

const DOMAIN_TYPES: Record<string, string> = {
  biz: 'Business',
  disposable: 'Disposable',
  edu: 'Education',
  freeisp: 'Free ISP',
  gov: 'Government',
  org: 'Non-profit',
  paidisp: 'Paid ISP',
  parked: 'Parked',
  privacy: 'Privacy',
  wireless: 'Wireless',
};

function useCall<T>() {
  const [answer, setAnswer] = useState<T | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<T>) => {
    setBusy(true);
    setError('');
    setAnswer(null);
    try {
      setAnswer(await call());
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return { answer, error, busy, run };
}

function EmailForm({
  id,
  label,
  button,
  busy,
  value,
  onValue,
  onSubmit,
}: {
  id: string;
  label: string;
  button: string;
  busy: boolean;
  value: string;
  onValue: (v: string) => void;
  onSubmit: () => void;
}) {
  return (
    <form
      class="card inline-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <label for={id}>{label}</label>
      <input id={id} type="email" required value={value} onInput={(e) => onValue(e.currentTarget.value)} autoComplete="off" />
      <button type="submit" disabled={busy || value.trim() === ''}>
        {busy ? 'Working…' : button}
      </button>
    </form>
  );
}

export function VerifyPage({ api }: { api: Api }) {
  const [email, setEmail] = useState('');
  const [explain, setExplain] = useState(false);
  const { answer, error, busy, run } = useCall<VerifyAnswer>();
  const verify = (address: string) => run(() => api.verify(address.trim(), explain));
  const result = answer?.safe_to_send ?? answer?.email_validation;
  return (
    <>
      <h1>Verify an address</h1>
      <EmailForm
        id="verify-email"
        label="Email address"
        button="Verify"
        busy={busy}
        value={email}
        onValue={setEmail}
        onSubmit={() => verify(email)}
      />
      <label class="check explain-toggle">
        <input type="checkbox" checked={explain} onChange={(e) => setExplain(e.currentTarget.checked)} /> Show the evidence (why this
        verdict: the rule, DNS and each SMTP command and reply; keys with the evidence permission)
      </label>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {result && (
        <section class="card verdict" aria-live="polite" aria-labelledby="verdict-title">
          <h2 id="verdict-title">
            <span class={`verdict-status status-${result.status}`} data-status={result.status}>
              {result.status}
            </span>{' '}
            {result.address}
          </h2>
          <p data-code={result.status_code}>
            Code {result.status_code}: {CODE_MEANINGS.get(result.status_code) ?? 'no meaning recorded for this code'}
          </p>
          <dl class="facts">
            {result.domain_type && (
              <>
                <dt>Domain type</dt>
                <dd>{DOMAIN_TYPES[result.domain_type] ?? result.domain_type}</dd>
              </>
            )}
            <dt>Role account</dt>
            <dd>{result.role_account ? 'Yes (a shared mailbox such as info@ or sales@)' : 'No'}</dd>
          </dl>
          {result.email_corrections && result.email_corrections.length > 0 && (
            <div>
              <h3>Did you mean</h3>
              <ul class="suggestions">
                {result.email_corrections.map((suggestion) => (
                  <li key={suggestion}>
                    <button
                      type="button"
                      class="link"
                      onClick={() => {
                        setEmail(suggestion);
                        void verify(suggestion);
                      }}
                    >
                      {suggestion}
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </section>
      )}
      {result &&
        explain &&
        (answer?.evidence ? (
          <EvidenceTimeline evidence={answer.evidence} />
        ) : (
          <p class="card hint">No evidence: this key does not have the evidence permission.</p>
        ))}
    </>
  );
}

export function LookupPage({ api }: { api: Api }) {
  const [email, setEmail] = useState('');
  const { answer, error, busy, run } = useCall<AppendAnswer>();
  const record = answer as Record<string, unknown> | null;
  const postal = record?.postal_address as Record<string, unknown> | undefined;
  return (
    <>
      <h1>Look a person up</h1>
      <EmailForm
        id="lookup-email"
        label="Email address"
        button="Look up"
        busy={busy}
        value={email}
        onValue={setEmail}
        onSubmit={() => run(() => api.lookup(email.trim()))}
      />
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {record && (
        <section class="card" aria-live="polite" aria-labelledby="lookup-title">
          <h2 id="lookup-title">{postal ? 'Postal address found' : 'No match'}</h2>
          {postal ? (
            <dl class="facts">
              {Object.entries(postal).map(([field, value]) => (
                <Fragment key={field}>
                  <dt>{field.replace(/_/g, ' ')}</dt>
                  <dd>{String(value)}</dd>
                </Fragment>
              ))}
            </dl>
          ) : (
            <p>Nobody with this address is known.</p>
          )}
        </section>
      )}
    </>
  );
}
