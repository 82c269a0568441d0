/**
 * Words that come before the name of a numbered or lettered road (`HWY 50`, `CO RD 12`,
 * `AVE H`), each with the spelled-out form we store. Publication 28 section 237 ("Highways")
 * and Appendix G spell these out in the street name (`US HIGHWAY 1`, `STATE ROUTE 9`,
 * `COUNTY ROAD 10`) rather than treating them as suffixes; the abbreviations on the right are
 * the ones seen in real lists. Source: USPS Publication 28 (public domain, a US Government work)
 * and Mailsure's own reading of address lists; MIT.
 *
 * `anywhere`: the phrase is rewritten wherever it stands before a token with a digit
 * (`OLD HWY 5` → `OLD HIGHWAY 5`); `leading`: only when it starts the street name and one short
 * token follows (`AVE H`, `RD 32`), because inside a name those words are ordinary (`AVENUE OF
 * THE AMERICAS` keeps its words, `PARK AVE 5` is not a road number).
 *
 * `numbered`: as `anywhere`, but only before a token with a digit, never before a lone letter:
 * the variants starting with `ST` (Street or Saint), which lists also write for State (`ST HWY
 * 61`, `ST RT 9`, Indiana's `ST RD 37`), and `CTY`; without a road number (`ST RD`, `CTY HWY A`)
 * the words keep their ordinary reading.
 *
 * One line per canonical phrase: `CANONICAL | where | variants separated by commas`. Suffix
 * words in a variant match any spelling of that suffix (`CO RD` also matches `CO ROAD`).
 */
export const ROUTE_PREFIX_TABLE = `
HIGHWAY         | anywhere | HIGHWAY, HWY, HIWAY, HIWY, HWAY, HGWY
US HIGHWAY      | anywhere | US HIGHWAY, US HWY, US HIWAY, US ROUTE, US RTE, US RT, US, U S HIGHWAY, U S HWY, U S ROUTE, U S
STATE HIGHWAY   | anywhere | STATE HIGHWAY, STATE HWY, SH, STATE HWAY, STATE HIWAY
STATE HIGHWAY   | numbered | ST HIGHWAY, ST HWY, ST HIWAY
STATE ROUTE     | anywhere | STATE ROUTE, STATE RTE, STATE RT, SR
STATE ROUTE     | numbered | ST ROUTE, ST RTE, ST RT
STATE ROAD      | anywhere | STATE ROAD, STATE RD
STATE ROAD      | numbered | ST ROAD, ST RD
COUNTY ROAD     | anywhere | COUNTY ROAD, COUNTY RD, CO RD, CO ROAD, CNTY RD, CR, C R, COUNTRY ROAD, COUNTRY RD
COUNTY ROAD     | numbered | CTY RD, CTY ROAD
COUNTY HIGHWAY  | anywhere | COUNTY HIGHWAY, COUNTY HWY, CO HWY, CNTY HWY
COUNTY HIGHWAY  | numbered | CTY HWY, CTY HIGHWAY
COUNTY ROUTE    | anywhere | COUNTY ROUTE, COUNTY RTE, CO RTE, CO RT, CNTY RTE, CNTY RT
COUNTY ROUTE    | numbered | CTY RTE, CTY RT
TOWNSHIP ROAD   | anywhere | TOWNSHIP ROAD, TOWNSHIP RD, TWP RD, TWP ROAD
TOWNSHIP HIGHWAY | anywhere | TOWNSHIP HIGHWAY, TOWNSHIP HWY, TWP HWY
ROUTE           | anywhere | ROUTE, RTE, RT
INTERSTATE      | anywhere | INTERSTATE, INTERSTATE HIGHWAY, IH, I
FM              | anywhere | FM, FM ROAD, FARM TO MARKET ROAD, FARM TO MARKET, FARM ROAD
RANCH ROAD      | anywhere | RANCH ROAD, RANCH RD
LOOP            | anywhere | LOOP
SPUR            | anywhere | SPUR
BUSINESS        | anywhere | BUSINESS, BUS
PRIVATE ROAD    | anywhere | PRIVATE ROAD, PVT RD, PR
ROAD            | leading  | ROAD, RD
AVENUE          | leading  | AVENUE, AVE, AV, AVN
BOULEVARD       | leading  | BOULEVARD, BLVD
`;
