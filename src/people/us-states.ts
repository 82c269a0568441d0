/** USPS two-letter codes: the 50 states, DC, the territories and the military "states". */
export const US_STATE_CODES: ReadonlySet<string> = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY ' +
    'DC PR GU VI AS MP AA AE AP'
  ).split(' '),
);

export function isUsStateCode(value: string): boolean {
  return US_STATE_CODES.has(value.toUpperCase());
}
