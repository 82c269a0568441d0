/**
 * Why a postal address was refused. The text reaches API callers as `error_msg`, so it is part of
 * the API: change it only deliberately (tests assert it exactly).
 */

export const INVALID_ZIP = 'Invalid zip';
export const INVALID_STATE = 'Invalid state';
export const MISSING_POSTAL = 'Give a ZIP code, or a city and a state';

export function zipNotFound(zip5: string): string {
  return `ZIP code ${zip5} does not exist`;
}

export function zipNotInState(zip5: string, state: string): string {
  return `ZIP code ${zip5} is not in state ${state}`;
}

export function zipNotInCity(zip5: string, city: string): string {
  return `ZIP code ${zip5} does not match city ${shown(city)}`;
}

export function cityNotInState(city: string, state: string): string {
  return `City ${shown(city)} not found in state ${state}`;
}

const MAX_SHOWN = 60;

/** A caller's city as it goes back into a message: spaces collapsed, control characters dropped, capped. */
export function shown(city: string): string {
  // White space first, so `New\nYork` keeps its space; then the control characters left.
  const text = city
    .replace(/\s+/g, ' ')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return [...text].length > MAX_SHOWN ? `${[...text].slice(0, MAX_SHOWN - 1).join('')}…` : text;
}
