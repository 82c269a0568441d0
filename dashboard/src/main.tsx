/** The dashboard's shell: sign-in with an API key (kept in this tab's session only), then the pages by hash route. */
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, createApi, operatorAvailable } from './api.js';
import { ListDetail } from './list-detail.js';
import { ListsPage } from './lists-page.js';
import { LookupPage, VerifyPage } from './single-pages.js';
import { OperatorPage } from './operator-page.js';

const KEY = 'mailsure.apiKey';

function useRoute(): string {
  const [hash, setHash] = useState(location.hash || '#/lists');
  useEffect(() => {
    const changed = () => setHash(location.hash || '#/lists');
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

/** Whether to offer the operator view: only when the server has one (MAILSURE_ADMIN_TOKEN), asked once. */
function useOperatorAvailable(): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    let live = true;
    void operatorAvailable().then((answer) => live && setAvailable(answer));
    return () => {
      live = false;
    };
  }, []);
  return available;
}

function SignIn({ onSignedIn, operator }: { onSignedIn: (key: string) => void; operator: boolean }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      // An ordinary call with the key: the API decides whether it is a key at all.
      await createApi(key.trim()).lists(1);
      onSignedIn(key.trim());
    } catch (failure) {
      // A real key without the List API (not permitted, or over its limit) may still verify and
      // look up: let it in; its lists page then says why in the API's words.
      const known =
        failure instanceof ApiError && (failure.status === 403 || (failure.status === 401 && failure.message !== 'Invalid API key'));
      if (known) onSignedIn(key.trim());
      else setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Mailsure</h1>
      <form onSubmit={submit} aria-describedby="signin-help">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          required
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <p id="signin-help" class="hint">
          The key stays in this browser tab only and is forgotten when the tab closes.
        </p>
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
      {operator && (
        <p>
          <a href="#/operator">Operator sign-in (admin token)</a>
        </p>
      )}
    </main>
  );
}

function App() {
  const [key, setKey] = useState<string | null>(() => sessionStorage.getItem(KEY));
  const route = useRoute();
  const api = useMemo(() => (key ? createApi(key) : null), [key]);
  const operator = useOperatorAvailable();
  if (route === '#/operator' && !api) {
    return (
      <main>
        <p>
          <a href="#/lists">← Sign in with an API key instead</a>
        </p>
        <OperatorPage />
      </main>
    );
  }
  if (!api) {
    return (
      <SignIn
        operator={operator}
        onSignedIn={(k) => {
          sessionStorage.setItem(KEY, k);
          setKey(k);
        }}
      />
    );
  }
  const signOut = () => {
    sessionStorage.removeItem(KEY);
    setKey(null);
  };
  const listMatch = /^#\/lists\/(\d+)$/.exec(route);
  const page = listMatch ? (
    <ListDetail api={api} id={Number(listMatch[1])} operator={operator} />
  ) : route === '#/verify' ? (
    <VerifyPage api={api} />
  ) : route === '#/lookup' ? (
    <LookupPage api={api} />
  ) : route === '#/operator' ? (
    <OperatorPage />
  ) : (
    <ListsPage api={api} />
  );
  const current = (prefix: string) => (route.startsWith(prefix) ? 'page' : undefined);
  return (
    <>
      <header class="top">
        <span class="brand">Mailsure</span>
        <nav aria-label="Pages">
          <a href="#/lists" aria-current={current('#/lists')}>
            Lists
          </a>
          <a href="#/verify" aria-current={current('#/verify')}>
            Verify an address
          </a>
          <a href="#/lookup" aria-current={current('#/lookup')}>
            Look a person up
          </a>
          {operator && (
            <a href="#/operator" aria-current={current('#/operator')}>
              Operator
            </a>
          )}
        </nav>
        <button type="button" class="secondary" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>{page}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
