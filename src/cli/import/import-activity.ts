/** `mailsure import activity FILE`: load email activity events in batches; exact repeats are ignored. */
import { activityFrom } from '../../people/activity-record.js';
import { prepareActivity } from '../../people/activity-rules.js';
import type { ActivityEvent } from '../../people/person.js';
import type { Storage } from '../../wiring/stores.js';
import { print } from '../output.js';
import { headerProblems } from './import-people.js';
import { printFailure, printRejections, runImport, type ImportOutcome } from './progress.js';
import { detectFormat } from './record-reader.js';

export interface ActivityImportResult extends Omit<ImportOutcome, 'rejectedLines' | 'warningLines'> {
  added: number;
}

export async function importActivity(
  storage: Storage,
  file: string,
  opts: { now?: Date; stream?: NodeJS.WriteStream } = {},
): Promise<ActivityImportResult> {
  const format = await detectFormat(file);
  const now = opts.now ?? new Date();
  let added = 0;
  const outcome = await runImport<ActivityEvent>({
    label: 'activity',
    file,
    format,
    rowProblems: await headerProblems(file, format),
    check: (record) => {
      const result = activityFrom(record, now);
      return 'activity' in result ? { value: result.activity } : result;
    },
    commit: async (batch) => {
      added += await storage.activity.add(prepareActivity(batch));
    },
    ...(opts.stream ? { stream: opts.stream } : {}),
  });
  print(`activity from ${format.toUpperCase()}: ${outcome.committed} loaded (${added} new), ${outcome.rejected} rejected`);
  printRejections(outcome);
  if (outcome.status === 'failed') printFailure('activity', outcome);
  const { rejectedLines: _lines, warningLines: _warnings, ...rest } = outcome;
  return { ...rest, added };
}
