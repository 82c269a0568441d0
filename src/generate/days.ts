/** Calendar days as integers (days since 1970-01-01, UTC): cheap arithmetic, no Date per event. */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of `YYYY-MM-DD`, or undefined for anything else or an impossible date. */
export function parseDay(text: string): number | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return undefined;
  return ms / 86_400_000;
}

/** Today's UTC date as `YYYY-MM-DD`. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * `YYYY-MM-DD` of a day number (Howard Hinnant's civil_from_days), memoised for the 4,096 days up
 * to `last`: the generator's dates all fall there.
 */
export class DayFormatter {
  private readonly cache: (string | undefined)[] = new Array<string | undefined>(4096).fill(undefined);
  private readonly first: number;

  constructor(last: number) {
    this.first = last - 4095;
  }

  format(day: number): string {
    const i = day - this.first;
    if (i < 0 || i >= 4096) return civil(day);
    return (this.cache[i] ??= civil(day));
  }
}

function civil(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${m < 10 ? '0' : ''}${m}-${d < 10 ? '0' : ''}${d}`;
}
