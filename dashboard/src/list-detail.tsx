/** One list: its state and progress (polled as Retry-After says), its reports as charts, and what can be done with it. */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, DEFAULT_POLL_SECONDS, type Api, type ListResource } from './api.js';
import { BarChart } from './bar-chart.js';
import { saveBlob } from './download.js';
import { isFinished, SERVICE_NAMES, services } from './list-state.js';
import { ListProgress, ListState } from './lists-table.js';
import { CODE_LABELS, CODE_MEANINGS } from './codes.js';

type Reporting = Record<string, unknown>;

function counts(value: unknown): Record<string, number> | null {
  if (!value || typeof value !== 'object') return null;
  const entries = Object.entries(value as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number');
  return Object.fromEntries(entries);
}

/** `verification_limited`'s reasons (src/lists/reporting.ts), in words. */
const LIMIT_WORDS: Record<string, string> = {
  'Resolver Not Trusted': 'not verified: our DNS resolver is failing',
  'SMTP Egress Blocked': 'mailbox not checked: our port 25 is blocked',
  'Prober Refused': 'mailbox not checked: the provider refused our verifier, not these addresses',
  'Provider Throttled': 'mailbox not checked: the provider kept asking us to slow down',
};

/** Records left unknown because of the verifier's own network: why, and where to look. */
function Limited({ value, operator }: { value: unknown; operator: boolean }) {
  const limited = counts(value);
  const total = limited?.['Limited Records'] ?? 0;
  if (!limited || total === 0) return null;
  const reasons = Object.entries(limited).filter(([reason, n]) => reason !== 'Limited Records' && n > 0);
  return (
    <div class="notice" data-limited={total}>
      <p>
        <strong>{total.toLocaleString('en')} records are unknown because of our own network, not because of the addresses</strong>: verify
        them again once it is fixed.
      </p>
      <ul>
        {reasons.map(([reason, n]) => (
          <li key={reason} data-limit={reason}>
            {n.toLocaleString('en')} {LIMIT_WORDS[reason] ?? reason.toLowerCase()}
            {operator ? (
              <>
                {' '}
                — see <a href="#/operator">Operator</a>
              </>
            ) : (
              ' — tell the server’s operator'
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What stands in for the report when there is none, true for the list's state. */
function noReport(list: ListResource): string {
  if (list.status === 'Invalid') return `No report: the file could not be processed${list.error ? ` (${list.error})` : ''}.`;
  if (list.status === 'Cancelled') return 'Cancelled: no report.';
  if (list.status === 'Error') return `No report: the list stopped on an error of ours${list.error ? ` (${list.error})` : ''}.`;
  return 'The report appears here once a service has finished.';
}

function Reports({ list, operator }: { list: ListResource; operator: boolean }) {
  const charts: preact.JSX.Element[] = [];
  const validation = list.services.email_validation?.reporting as Reporting | undefined;
  if (validation) {
    const add = (title: string, value: unknown) => {
      const c = counts(value);
      if (c) charts.push(<BarChart key={title} title={title} counts={c} />);
    };
    add('Statuses', validation.statuses);
    add('Invalid categories', validation.invalid_categories);
    add('Domain types', validation.domain_type);
    if (typeof validation.role_accounts === 'number') {
      const completed = list.services.email_validation?.completed_count ?? 0;
      charts.push(
        <BarChart
          key="roles"
          title="Role accounts"
          counts={{ 'Role accounts': validation.role_accounts, 'Personal addresses': Math.max(0, completed - validation.role_accounts) }}
        />,
      );
    }
    const codes = counts(validation.status_codes);
    if (codes) {
      // A few words per code on the bar; the catalogue's whole meaning on hover.
      const label = (code: string) => `${code} ${CODE_LABELS.get(Number(code)) ?? ''}`.trim();
      const named = Object.fromEntries(Object.entries(codes).map(([code, n]) => [label(code), n]));
      const titles = Object.fromEntries(
        Object.keys(codes).map((code) => [
          label(code),
          `${code}: ${CODE_MEANINGS.get(Number(code)) ?? 'no meaning recorded for this code'}`,
        ]),
      );
      charts.push(<BarChart key="codes" title="Status codes" counts={named} titles={titles} />);
    }
  }
  const append = list.services.email_append?.reporting as Reporting | undefined;
  if (append) {
    const c = counts(append.email_match_type);
    if (c) charts.push(<BarChart key="append" title="Email append matches" counts={c} />);
  }
  const intelligence = list.services.email_intelligence?.reporting as Record<string, { 'Total Count'?: number }> | undefined;
  if (intelligence) {
    const c = Object.fromEntries(Object.entries(intelligence).map(([field, v]) => [field, v['Total Count'] ?? 0]));
    charts.push(<BarChart key="fields" title="Matched enrichment fields" counts={c} />);
  }
  if (charts.length === 0) return <p data-no-report>{noReport(list)}</p>;
  return (
    <>
      <Limited value={validation?.verification_limited} operator={operator} />
      <div class="charts">{charts}</div>
    </>
  );
}

/** `operator`: the server has the operator view (MAILSURE_ADMIN_TOKEN), so its page can be pointed to. */
export function ListDetail({ api, id, operator }: { api: Api; id: number; operator: boolean }) {
  const [list, setList] = useState<ListResource | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      let wait: number | null = null;
      try {
        const answer = await api.list(id);
        if (stopped) return;
        setList(answer.list);
        setError('');
        if (!isFinished(answer.list)) wait = answer.retryAfter ?? DEFAULT_POLL_SECONDS;
      } catch (failure) {
        if (stopped) return;
        setError(failure instanceof Error ? failure.message : String(failure));
        // Over the rate (429) or a passing fault: try again when the server says; a 404 stays.
        if (failure instanceof ApiError && failure.status !== 404 && failure.status !== 401)
          wait = failure.retryAfter ?? DEFAULT_POLL_SECONDS;
      }
      if (wait !== null && !stopped) timer = setTimeout(() => void poll(), wait * 1000);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, id, generation]);

  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setNotice('');
    setError('');
    try {
      await what();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const purchase = () =>
    act(async () => {
      setList(await api.purchase(id));
      setNotice('Purchased: the list is being completed.');
      setGeneration((g) => g + 1);
    });
  const cancel = () =>
    act(async () => {
      setConfirmCancel(false);
      setList(await api.cancel(id));
      setNotice('The list is cancelled.');
    });
  const download = () =>
    act(async () => {
      const { blob, fileName } = await api.results(id);
      saveBlob(blob, fileName);
      setNotice(`Downloaded ${fileName}.`);
    });

  return (
    <>
      <p>
        <a href="#/lists">← All lists</a>
      </p>
      <h1>{list ? list.name : `List ${id}`}</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {notice && (
        <p role="status" class="ok">
          {notice}
        </p>
      )}
      {list && (
        <>
          <section class="card" aria-labelledby="list-state">
            <h2 id="list-state">
              State: <ListState list={list} />
            </h2>
            {list.error && <p class="error">{list.error}</p>}
            <ListProgress list={list} />
            <dl class="facts">
              <dt>List</dt>
              <dd>#{list.list_id}</dd>
              <dt>Records</dt>
              <dd>{list.records.toLocaleString('en')}</dd>
              <dt>Uploaded</dt>
              <dd>{list.size_bytes.toLocaleString('en')} bytes</dd>
              <dt>Submitted</dt>
              <dd>
                <time dateTime={list.created_at}>{new Date(list.created_at).toLocaleString('en')}</time>
              </dd>
              {services(list).map(([name, service]) => (
                <Fragment key={name}>
                  <dt>{SERVICE_NAMES[name] ?? name}</dt>
                  <dd>
                    {service.status}, {service.completed_count.toLocaleString('en')} of {service.input_count.toLocaleString('en')}
                  </dd>
                </Fragment>
              ))}
            </dl>
            <div class="actions">
              {list.status === 'Results' && (
                <button type="button" onClick={download} disabled={busy}>
                  Download results
                </button>
              )}
              {list.status === 'Processed' && (
                <button type="button" onClick={purchase} disabled={busy}>
                  Purchase results
                </button>
              )}
              {!isFinished(list) && !confirmCancel && (
                <button type="button" class="danger" onClick={() => setConfirmCancel(true)} disabled={busy}>
                  Cancel list
                </button>
              )}
              {confirmCancel && (
                <span role="group" aria-label="Confirm cancelling">
                  <span>Cancel this list? Records not done yet are not processed.</span>{' '}
                  <button type="button" class="danger" onClick={cancel} disabled={busy}>
                    Yes, cancel the list
                  </button>{' '}
                  <button type="button" class="secondary" onClick={() => setConfirmCancel(false)}>
                    Keep it
                  </button>
                </span>
              )}
            </div>
          </section>
          <section class="card" aria-labelledby="list-report">
            <h2 id="list-report">Report</h2>
            <Reports list={list} operator={operator} />
          </section>
        </>
      )}
      {!list && !error && <p>Loading…</p>}
    </>
  );
}
