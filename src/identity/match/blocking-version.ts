/**
 * The version of `personBlockingColumns` (blocking.ts). Add one whenever it computes anything
 * differently (the pinned digest in blocking-version.test.ts fails until then): stored people
 * whose columns an older version derived are re-derived at the next open (refresh-blocking.ts).
 * 1: migration 0005's frozen copy; 2: rural-delivery boxes, a box before its route, unit ids in
 * any punctuation. A module of its own so that opening the database can compare versions without
 * loading the street parser and the name codes.
 */
export const BLOCKING_VERSION = 2;
