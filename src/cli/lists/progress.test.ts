import { PassThrough } from 'node:stream';
import { progressOf, type ListResource } from '@mailsure/client';
import { describe, expect, it } from 'vitest';
import { progressView } from './progress.js';
import { describeList } from './render.js';

const list = (status: ListResource['status'], services: ListResource['services']): ListResource => ({
  list_id: 7,
  name: 'people.csv',
  status,
  records: 298,
  size_bytes: 9000,
  created_at: '2026-01-01T00:00:00.000Z',
  services,
});

/** A pipe (not a terminal): what the view writes, line by line. */
function piped(): { stream: NodeJS.WriteStream; lines: () => string[] } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, lines: () => text.split('\n').filter(Boolean) };
}

describe('mailsure lists progress in a pipe', () => {
  it('prints records as the least advanced service has them, each service’s own count, and "in progress" beside a started Pending', () => {
    const out = piped();
    const view = progressView(out.stream);
    view.update(progressOf(list('Pending', {})));
    view.update(
      progressOf(
        list('Pending', {
          email_validation: { status: 'Processing', completed_count: 200, input_count: 298 },
          email_intelligence: { status: 'Processing', completed_count: 80, input_count: 298 },
        }),
      ),
    );
    const done = { status: 'Completed' as const, completed_count: 298, input_count: 298 };
    view.update(progressOf(list('Results', { email_validation: done, email_intelligence: done })));
    view.update(progressOf(list('Results', { email_validation: done, email_intelligence: done })));
    view.stop();
    expect(out.lines()).toEqual([
      'list 7: Pending 0/298 records',
      'list 7: Pending (in progress) 80/298 records (email_validation 200/298, email_intelligence 80/298)',
      'list 7: Results 298/298 records (email_validation 298/298, email_intelligence 298/298)',
    ]);
  });

  it('describes a started Pending list as in progress', () => {
    const [head] = describeList(list('Pending', { email_validation: { status: 'Processing', completed_count: 10, input_count: 298 } }));
    expect(head).toMatch(/^list 7 people\.csv: Pending \(in progress\), 298 records, /);
  });
});
