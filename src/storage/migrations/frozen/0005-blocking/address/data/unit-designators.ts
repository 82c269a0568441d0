// Migration 0005's frozen copy of identity/address/data/unit-designators.ts as it stood at the freeze (frozen/0005-blocking.ts): never edit.
/**
 * Secondary unit designators. Source: USPS Publication 28, Appendix C2 "Secondary Unit
 * Designators" (https://pe.usps.com/text/pub28/28apc_003.htm) and section 213, a work of the
 * United States Government in the public domain; written for Mailsure from it.
 *
 * One line per designator: `STANDARD  RANGE  names…` where RANGE is `range` when Publication 28
 * says the designator requires a secondary range (`APT 4`) and `none` when it stands alone
 * (`REAR`). The names after the Publication 28 name are common spellings seen in real lists
 * (`FLR`, `BLD`, `SUIT`), not Publication 28 forms.
 *
 * The block after the C2 table holds designators outside Appendix C2 that mail still carries:
 * `#` (section 213: used when the designator is unknown; lists also write it `NO`), `PMB` (private mailbox, section 285),
 * and `MSC` (mail stop code, section 327). They keep their own upper-case form.
 */
export const UNIT_DESIGNATOR_TABLE = `
APT   range  APARTMENT APT APARTMNT APPT APRT
BSMT  none   BASEMENT BSMT
BLDG  range  BUILDING BLDG BLD BLG BLDNG
DEPT  range  DEPARTMENT DEPT DEP
FL    range  FLOOR FL FLR
FRNT  none   FRONT FRNT
HNGR  range  HANGAR HNGR HANGER
KEY   range  KEY
LBBY  none   LOBBY LBBY
LOT   range  LOT LT
LOWR  none   LOWER LOWR
OFC   none   OFFICE OFC OFFC
PH    none   PENTHOUSE PH
PIER  range  PIER
REAR  none   REAR
RM    range  ROOM RM
SIDE  none   SIDE
SLIP  range  SLIP
SPC   range  SPACE SPC
STOP  range  STOP
STE   range  SUITE STE SUIT
TRLR  range  TRAILER TRLR
UNIT  range  UNIT UNT
UPPR  none   UPPER UPPR

#     range  # NO NUM NBR
PMB   range  PMB
MSC   range  MSC
`;
