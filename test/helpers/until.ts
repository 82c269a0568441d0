/**
 * The one way a test waits for what another task, process or server does in real time (a list to
 * finish, a callback to arrive, a proxy to notice a dead peer): asks `probe` every `everyMs` until
 * it answers a truthy value, and answers that value. It gives up after `withinMs` with what was
 * waited for in the message. The bound is generous on purpose: a loaded CI machine is slow, a wait
 * that ends early costs nothing, and only a test that fails pays the bound. Waits the test itself
 * decides (a timer, a back-off) belong to a fake clock instead.
 */
export interface UntilOptions {
  /** What is waited for, for the failure message. */
  what?: string;
  /** Between two asks (default 10 ms). */
  everyMs?: number;
  /** Give up after this long (default 25 s, under the 30 s test timeout). */
  withinMs?: number;
  /** What to show when giving up (the state that was seen). */
  seen?: () => unknown;
}

export async function until<T>(probe: () => T | Promise<T>, options: UntilOptions | string = {}): Promise<NonNullable<T>> {
  const { what = 'a condition', everyMs = 10, withinMs = 25_000, seen } = typeof options === 'string' ? { what: options } : options;
  const bound = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > bound) {
      const state = seen ? `; seen: ${JSON.stringify(await seen())}` : '';
      throw new Error(`gave up waiting for ${what} after ${withinMs / 1000} s${state}`);
    }
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
