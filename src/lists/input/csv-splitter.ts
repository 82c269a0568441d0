/**
 * A CSV reader that gives exactly the records csv-parse gives with the options read-records.ts
 * uses (`relax_quotes`, `relax_column_count`, `skip_empty_lines`, `skip_records_with_empty_values`,
 * `bom`; the record delimiter is the first line end found, and from then on only that one), at a
 * fifth of its cost: csv-parse looks at every byte through several method calls, this looks for
 * the next special character with `indexOf` and cuts cells out with `slice`. A million-row list is
 * read three times (parse, services, results), so that difference was a tenth of the whole run.
 * csv-splitter.test.ts holds it to csv-parse on random text cut at random places.
 *
 * csv-parse's rules, as this follows them:
 * - A cell starting with a quote is quoted: `""` inside is one quote; a quote followed by the
 *   delimiter, the record delimiter or the end of the text closes it. A quote followed by anything
 *   else also closes it (`relax_quotes`), and the cell is then the text as written, both quotes
 *   included, up to the next delimiter.
 * - A quote anywhere else in a cell is an ordinary character.
 * - Until the first line end outside quotes (or right after a closing quote) is seen, `\r\n`,
 *   `\n` and `\r` all end a record, and the first one seen becomes the only record delimiter.
 * - An empty line, and a record whose cells are all white space, is not a record.
 * - A byte-order mark at the very start is dropped.
 *
 * What it does not do is fail the way csv-parse fails: a quote never closed is reported without
 * its line, and it gives up (`TooLong`) on a record long enough that csv-parse's size limit could
 * apply. Callers then read the file with csv-parse instead (prepare-list.ts).
 */

export class CsvSplitError extends Error {
  constructor(readonly reason: 'unclosed-quote' | 'too-long') {
    super(reason === 'unclosed-quote' ? 'a quote is never closed' : 'a record is too long for the fast reader');
  }
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Feed text in order with `write`; each call answers the records it completed. */
export class CsvSplitter {
  private pending = '';
  private started = false;
  /** `''` until the first line end is seen. */
  private recordDelimiter: '' | '\n' | '\r\n' | '\r' = '';
  private readonly delimiter: string;
  /** Records may span at most this many UTF-16 units (3 bytes each at most): below csv-parse's byte limit. */
  private readonly maxSpan: number;

  constructor(delimiter: string, maxRecordBytes: number) {
    if (delimiter.length === 0) throw new RangeError('the delimiter must not be empty');
    this.delimiter = delimiter;
    this.maxSpan = Math.floor(maxRecordBytes / 3);
  }

  /** The records completed by `text`; `end` when it is the last of the input. */
  write(text: string, end: boolean): string[][] {
    let buf = this.pending.length > 0 ? this.pending + text : text;
    if (!this.started) {
      if (buf.length === 0 && !end) return [];
      this.started = true;
      if (buf.charCodeAt(0) === 0xfeff) buf = buf.slice(1);
    }
    const rows: string[][] = [];
    let at = 0;
    while (at < buf.length) {
      const next = this.record(buf, at, end, rows);
      if (next < 0) break;
      at = next;
    }
    this.pending = at < buf.length ? buf.slice(at) : '';
    if (end && this.pending.length > 0) throw new Error('csv-splitter: text left at the end');
    if (this.pending.length > this.maxSpan) throw new CsvSplitError('too-long');
    return rows;
  }

  /**
   * Reads the record starting at `start`; pushes it unless it is blank. Answers where the next
   * record starts, or -1 when the text ends first and more is coming (the record is read again
   * from its start with more text).
   */
  private record(buf: string, start: number, end: boolean, rows: string[][]): number {
    const len = buf.length;
    const d = this.delimiter;
    const cells: string[] = [];
    let pos = start;
    for (;;) {
      let cell: string;
      let quoted = false;
      // `pos` at the first character of a cell.
      if (pos < len && buf.charCodeAt(pos) === QUOTE) {
        // Quoted: up to a closing quote.
        let text = '';
        let from = pos + 1;
        let q: number;
        for (;;) {
          q = buf.indexOf('"', from);
          if (q === -1) {
            if (!end) return -1;
            throw new CsvSplitError('unclosed-quote');
          }
          if (q + 1 >= len && !end) return -1;
          if (buf.charCodeAt(q + 1) === QUOTE) {
            text += buf.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          break;
        }
        text += buf.slice(from, q);
        pos = q + 1;
        const closes = this.closes(buf, pos, end);
        if (closes === undefined) return -1;
        if (closes) {
          cell = text;
          quoted = true;
        } else {
          // relax_quotes: the cell is the text as written from here to the cell's end.
          const rest = this.plainEnd(buf, pos, end);
          if (rest < 0) return -1;
          cell = `"${text}"${buf.slice(pos, rest)}`;
          pos = rest;
        }
      } else {
        const stop = this.plainEnd(buf, pos, end);
        if (stop < 0) return -1;
        cell = buf.slice(pos, stop);
        pos = stop;
      }
      // `pos` at what ends the cell: the delimiter, a record delimiter, or the end of the text.
      if (pos - start > this.maxSpan) throw new CsvSplitError('too-long');
      if (pos >= len) {
        // Only at the very end: `plainEnd` and `closes` ask for more text otherwise.
        if (quoted || cells.length > 0 || cell.length > 0) cells.push(cell);
        else return len;
        this.emit(cells, rows);
        return len;
      }
      if (buf.startsWith(d, pos)) {
        cells.push(cell);
        pos += d.length;
        continue;
      }
      const rd = this.recordDelimiterAt(buf, pos, end);
      if (rd === undefined) return -1;
      if (rd === 0) throw new Error(`csv-splitter: a cell ended at ${pos} on nothing`);
      // An empty line is skipped; a line of one quoted empty cell is a blank record, skipped too.
      if (quoted || cells.length > 0 || cell.length > 0) {
        cells.push(cell);
        this.emit(cells, rows);
      }
      return pos + rd;
    }
  }

  private emit(cells: string[], rows: string[][]): void {
    for (const cell of cells) if (cell.trim() !== '') return void rows.push(cells);
  }

  /**
   * Where an unquoted cell (or the rest of a relaxed one) from `pos` ends: at the delimiter or a
   * record delimiter, or the end of the text. -1 when more text is needed to tell.
   */
  private plainEnd(buf: string, pos: number, end: boolean): number {
    const len = buf.length;
    const d = this.delimiter;
    for (;;) {
      const del = buf.indexOf(d, pos);
      const stop = del === -1 ? len : del;
      const line = this.lineEndBefore(buf, pos, stop);
      if (line === -1) {
        if (del !== -1) return del;
        return end ? len : -1;
      }
      // A `\r` whose meaning depends on the next character, at the end of what we have.
      if (buf.charCodeAt(line) === CR && line + 1 >= len && !end && (this.recordDelimiter === '' || this.recordDelimiter === '\r\n')) {
        return -1;
      }
      if (this.recordDelimiterAt(buf, line, end)) return line;
      pos = line + 1;
    }
  }

  /** The first `\r` or `\n` in [from, to) that may end a record, or -1. */
  private lineEndBefore(buf: string, from: number, to: number): number {
    const rd = this.recordDelimiter;
    if (rd === '\n') {
      const at = buf.indexOf('\n', from);
      return at !== -1 && at < to ? at : -1;
    }
    if (rd === '\r\n' || rd === '\r') {
      const at = buf.indexOf('\r', from);
      return at !== -1 && at < to ? at : -1;
    }
    for (let i = from; i < to; i++) {
      const c = buf.charCodeAt(i);
      if (c === CR || c === LF) return i;
    }
    return -1;
  }

  /**
   * The length of the record delimiter at `pos` (0 for none), discovering it when none is known
   * yet; undefined when the next character, not yet here, decides.
   */
  private recordDelimiterAt(buf: string, pos: number, end: boolean): number | undefined {
    const c = buf.charCodeAt(pos);
    if (c !== CR && c !== LF) return 0;
    const rd = this.recordDelimiter;
    if (rd === '\n') return c === LF ? 1 : 0;
    if (rd === '\r') return c === CR ? 1 : 0;
    if (c === CR && pos + 1 >= buf.length && !end) return undefined;
    const crlf = c === CR && buf.charCodeAt(pos + 1) === LF;
    if (rd === '\r\n') return crlf ? 2 : 0;
    this.recordDelimiter = crlf ? '\r\n' : c === CR ? '\r' : '\n';
    return crlf ? 2 : 1;
  }

  /** Whether a quote just before `pos` closes its cell; undefined when the text ends too soon to tell. */
  private closes(buf: string, pos: number, end: boolean): boolean | undefined {
    if (pos >= buf.length) return end ? true : undefined;
    if (buf.startsWith(this.delimiter, pos)) return true;
    if (!end && pos + this.delimiter.length > buf.length) return undefined;
    const rd = this.recordDelimiterAt(buf, pos, end);
    if (rd === undefined) return undefined;
    return rd > 0;
  }
}
