/**
 * The kinds of identity query variant for the name forms of issue 30 (name-variant-forms.ts):
 * titles, generational suffixes, spelling variants, near names and double first names.
 */
export const NAME_VARIANT_KINDS = ['title', 'suffix', 'spelling-variant', 'near-name', 'double-first', 'trap-near-names'] as const;
export type NameVariantKind = (typeof NAME_VARIANT_KINDS)[number];

export const NAME_VARIANT_DESCRIPTIONS: Readonly<Record<NameVariantKind, string>> = {
  title:
    'a salutation or title before the first name (`Mr John`, `Mrs. Mary`, `Dr. Jennifer K` with the middle initial in the first name): the person',
  suffix:
    'a generational suffix after the last name (`Smith Jr`, `Smith, Sr.`, `Smith III`) where the record has none: the person; one that conflicts with the record’s (`III` for a stored `Jr`): the household only',
  'spelling-variant':
    'another spelling of the first name from a table of known spellings (`Kurtis` for Curtis, `Sheryl` for Cheryl, `Ashleigh` for Ashley, `Dillon` for Dylan): the person',
  'near-name':
    'a common first name one letter from the person’s and not a spelling or nickname of it (`Joan` at John’s, `Carol` at Carl’s), nobody’s in the household: the household only',
  'double-first': 'a double first name written otherwise (`Mary Jane`, `Mary-Jane`, `MaryJane`): the person',
  'trap-near-names':
    'two members whose first names are one letter apart (John and Joan, Carl and Carol): each by name is that one, a slip that is no name (`Jhon`) the one it is closest to',
};
