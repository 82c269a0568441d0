/** `mailsure generate people`: a deterministic synthetic dataset as the NDJSON `import` reads. */
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Command } from 'commander';
import { parseDay, utcToday } from '../generate/days.js';
import { fail, print } from './output.js';

export interface GenerateFlags {
  count: string;
  seed: string;
  out?: string;
  activityOut?: string;
  today?: string;
}

export function registerGenerateCommands(program: Command): void {
  const generate = program.command('generate').description('write synthetic data for demos, tests and benchmarks');
  generate
    .command('people')
    .description('people (NDJSON, `import people`) and their activity (NDJSON, `import activity`)')
    .requiredOption('--count <n>', 'number of people')
    .option('--seed <seed>', 'any text; the same count, seed and today give the same files', '1')
    .option('--out <file>', 'people file (default: stdout)')
    .option('--activity-out <file>', 'activity file (default with --out: <out without .ndjson>.activity.ndjson; none on stdout)')
    .option('--today <YYYY-MM-DD>', 'last day of activity and orders (default: the current UTC date)')
    .action(async (flags: GenerateFlags) => {
      try {
        const summary = await generatePeopleCommand(flags);
        if (summary.message !== undefined) print(summary.message);
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    });
}

/** Default activity file beside the people file: `people.ndjson` → `people.activity.ndjson`. */
export function defaultActivityPath(out: string): string {
  return `${out.replace(/\.(nd)?jsonl?$/i, '')}.activity.ndjson`;
}

export async function generatePeopleCommand(flags: GenerateFlags): Promise<{ people: number; activity: number; message?: string }> {
  if (!/^\d{1,9}$/.test(flags.count)) throw new Error(`--count must be a whole number, not ${JSON.stringify(flags.count)}`);
  const count = Number(flags.count);
  const today = flags.today ?? utcToday();
  if (parseDay(today) === undefined) throw new Error(`--today must be a date YYYY-MM-DD, not ${JSON.stringify(today)}`);
  const activityPath = flags.activityOut ?? (flags.out !== undefined ? defaultActivityPath(flags.out) : undefined);
  if (activityPath !== undefined && activityPath === flags.out) throw new Error('--activity-out must differ from --out');

  // The generator loads when it runs, not with the command line (main.ts says why).
  const { writeDataset } = await import('../generate/write-dataset.js');
  const started = Date.now();
  const files: WriteStream[] = [];
  let fileError: Error | undefined;
  const open = (path: string) => {
    // A deep buffer lets generation go on while the disk catches up.
    const stream = createWriteStream(path, { highWaterMark: 1 << 22 });
    // Kept for the report: the writer only sees that the stream closed.
    stream.on('error', (error) => (fileError ??= error));
    files.push(stream);
    return stream;
  };
  const people = flags.out !== undefined ? open(flags.out) : process.stdout;
  // A reader that stops early (`| head`) closes the pipe: that ends the output, it is no failure.
  let pipeClosed = false;
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') pipeClosed = true;
  };
  if (people === process.stdout) process.stdout.on('error', onStdoutError);
  const activity = activityPath !== undefined ? open(activityPath) : undefined;
  try {
    const summary = await writeDataset({ count, seed: flags.seed, today, people, activity });
    await Promise.all(files.map((f) => (f.end(), once(f, 'finish'))));
    const seconds = (Date.now() - started) / 1000;
    const rate = seconds > 0 ? Math.round(summary.people / seconds) : summary.people;
    const where = `${flags.out ?? 'stdout'}${activityPath !== undefined ? ` and ${summary.activity} activity events to ${activityPath}` : ''}`;
    const message = `wrote ${summary.people} people to ${where} in ${seconds.toFixed(1)} s (${rate} people/s)`;
    // With people on stdout the report must not mix into the data.
    if (flags.out === undefined) {
      process.stderr.write(`${message}\n`);
      return summary;
    }
    return { ...summary, message };
  } catch (error) {
    for (const f of files) f.destroy();
    if (pipeClosed) return { people: 0, activity: 0 };
    throw fileError ?? error;
  } finally {
    process.stdout.off('error', onStdoutError);
  }
}
