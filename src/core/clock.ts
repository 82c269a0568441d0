/** Time as a dependency, so tests can move it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
