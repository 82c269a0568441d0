/** The lists page: upload a file with the submit options, and every list of the key with live progress. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, DEFAULT_POLL_SECONDS, type Api, type ListResource } from './api.js';
import { isFinished } from './list-state.js';
import { ListsTable } from './lists-table.js';

const DELIMITERS: [string, string][] = [
  ['', 'By file type (.csv comma, .txt tab)'],
  [',', 'Comma'],
  ['tab', 'Tab'],
  [';', 'Semicolon'],
  ['|', 'Pipe'],
];

function UploadForm({ api, onSubmitted }: { api: Api; onSubmitted: (id: number) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState(true);
  const [emailColumn, setEmailColumn] = useState('');
  const [delimiter, setDelimiter] = useState('');
  const [report, setReport] = useState(false);
  const [fields, setFields] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const submitted = await api.submit(file, {
        header,
        report,
        fields,
        ...(emailColumn ? { emailColumn: Number(emailColumn) } : {}),
        ...(delimiter ? { delimiter } : {}),
      });
      setMessage({ error: false, text: `List ${submitted.list_id} submitted (${submitted.size_bytes.toLocaleString('en')} bytes).` });
      setFile(null);
      if (input.current) input.current.value = '';
      onSubmitted(submitted.list_id);
    } catch (failure) {
      setMessage({ error: true, text: failure instanceof Error ? failure.message : String(failure) });
    } finally {
      setBusy(false);
    }
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer?.files[0];
    if (dropped) setFile(dropped);
  };

  return (
    <form class="card upload" onSubmit={submit}>
      <h2>Submit a list</h2>
      <div
        class={dragging ? 'dropzone dragging' : 'dropzone'}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
      >
        <label for="list-file">File (.csv, .txt or .zip): drop it here or choose it</label>
        <input
          id="list-file"
          ref={input}
          type="file"
          accept=".csv,.txt,.zip,text/csv,text/plain,application/zip"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        {file && <p class="hint">Selected: {file.name}</p>}
      </div>
      <div class="options">
        <label class="check">
          <input type="checkbox" checked={header} onChange={(e) => setHeader(e.currentTarget.checked)} /> The first row is a header
        </label>
        <label class="check">
          <input type="checkbox" checked={report} onChange={(e) => setReport(e.currentTarget.checked)} /> Report only (buy the results after
          reading the report)
        </label>
        <label>
          Email column (number, optional)
          <input type="number" min={1} inputMode="numeric" value={emailColumn} onInput={(e) => setEmailColumn(e.currentTarget.value)} />
        </label>
        <label>
          Delimiter
          <select value={delimiter} onChange={(e) => setDelimiter(e.currentTarget.value)}>
            {DELIMITERS.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        </label>
        <label>
          Enrichment fields (comma-separated, optional)
          <input type="text" value={fields} onInput={(e) => setFields(e.currentTarget.value)} placeholder="age,gender" />
        </label>
      </div>
      <button type="submit" disabled={!file || busy}>
        {busy ? 'Uploading…' : 'Submit list'}
      </button>
      {message && (
        <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : 'ok'}>
          {message.text}
        </p>
      )}
    </form>
  );
}

export function ListsPage({ api }: { api: Api }) {
  const [lists, setLists] = useState<ListResource[] | null>(null);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Unfinished lists are asked for one by one, as often as their Retry-After allows.
    const poll = async (ids: number[]) => {
      let wait = Infinity;
      const still: number[] = [];
      for (const id of ids) {
        try {
          const { list, retryAfter } = await api.list(id);
          if (stopped) return;
          setLists((current) => current && current.map((l) => (l.list_id === id ? list : l)));
          if (!isFinished(list)) {
            still.push(id);
            wait = Math.min(wait, retryAfter ?? DEFAULT_POLL_SECONDS);
          }
        } catch (failure) {
          if (stopped) return;
          setError(failure instanceof Error ? failure.message : String(failure));
          const retryAfter = failure instanceof ApiError ? failure.retryAfter : null;
          still.push(id);
          wait = Math.min(wait, retryAfter ?? DEFAULT_POLL_SECONDS);
        }
      }
      if (still.length && !stopped) timer = setTimeout(() => void poll(still), wait * 1000);
    };
    api.lists().then(
      (page) => {
        if (stopped) return;
        setLists(page.lists);
        setError('');
        const unfinished = page.lists.filter((l) => !isFinished(l)).map((l) => l.list_id);
        if (unfinished.length) timer = setTimeout(() => void poll(unfinished), DEFAULT_POLL_SECONDS * 1000);
      },
      (failure: unknown) => !stopped && setError(failure instanceof Error ? failure.message : String(failure)),
    );
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, generation]);

  return (
    <>
      <h1>Lists</h1>
      <UploadForm api={api} onSubmitted={reload} />
      <section class="card" aria-labelledby="your-lists">
        <h2 id="your-lists">Your lists</h2>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
        {lists === null && !error && <p>Loading…</p>}
        {lists?.length === 0 && <p>No lists yet: submit one above.</p>}
        {lists && lists.length > 0 && <ListsTable lists={lists} linked withKey={false} />}
      </section>
    </>
  );
}
