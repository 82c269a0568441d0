// Migration 0005's frozen copy of identity/address/data/directionals.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * USPS Publication 28, section 233 "Directionals": the eight directionals and their standard
 * one- and two-letter abbreviations. Source: USPS Publication 28, Postal Addressing Standards
 * (https://pe.usps.com/text/pub28/28c2_014.htm), a work of the United States Government in the
 * public domain; written for Mailsure from it.
 *
 * Two-word forms (`NORTH EAST`) are joined by the parser, not listed here. The Spanish
 * directionals Publication 28 gives for Puerto Rico (NORTE, SUR, ESTE, OESTE…) are left out on
 * purpose: `O` (oeste) would turn `AVENUE O` into a directional.
 */
export const DIRECTIONALS: Readonly<Record<string, string>> = {
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
  NORTHEAST: 'NE',
  NORTHWEST: 'NW',
  SOUTHEAST: 'SE',
  SOUTHWEST: 'SW',
};
