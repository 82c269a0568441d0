/**
 * Errors as values for the List API building blocks. `reason` is a whole sentence written for
 * the caller: the route puts it into `error_msg` (400 / 422) or the list resource's `error`
 * field (state `Invalid`) unchanged.
 */
export type Ok<T> = { ok: true; value: T };
export type Fail = { ok: false; reason: string };
export type Outcome<T> = Ok<T> | Fail;

export const ok = <T>(value: T): Ok<T> => ({ ok: true, value });
export const fail = (reason: string): Fail => ({ ok: false, reason });

/** Thousands separators, as the reference writes its limits ("1,000,000"). */
export const formatCount = (n: number): string => n.toLocaleString('en-US');
