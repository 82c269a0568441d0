/**
 * A problem with the uploaded file found while streaming it. Streams cannot return values, so
 * the stages below `scanList` throw this; `scanList` turns it back into a value. Anything
 * else thrown from a stream is our own failure (state `Error`), not the file's.
 */
/** `not-utf8` is the one problem `prepareList` answers by reading the file again as Windows-1252. */
export type InputProblem = 'not-utf8' | 'encoding' | 'binary' | 'zip' | 'too-large' | 'csv';

export class InputError extends Error {
  constructor(
    readonly problem: InputProblem,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'InputError';
  }
}
