/** The address-form and mailbox variant kinds (issue 30), with what each sends and expects (for reports). */

export const ADDRESS_FORM_KINDS = [
  'highway-form',
  'county-road-form',
  'rural-route-form',
  'unit-punctuation',
  'other-zip',
  'other-zip-initial',
  'road-number-trap',
  'unit-letter-trap',
] as const;
export type AddressFormKind = (typeof ADDRESS_FORM_KINDS)[number];

export const ADDRESS_FORM_DESCRIPTIONS: Readonly<Record<AddressFormKind, string>> = {
  'highway-form': 'a state highway in another spelling of its class (`St Hwy 61`, `SR 61`, `Hwy 61` for `State Highway 61`): the person',
  'county-road-form': 'a county road in another spelling (`CR 5`, `CTY RD 5`, `Co. Rd. 5` for `County Road 5`): the person',
  'rural-route-form': 'a rural route box in another spelling (`Rural Route 2, Box 152`, `RFD #2 Box 152`, `Box 152 RR 2`): the person',
  'unit-punctuation': 'a lettered unit in other punctuation (`Apt 3-C`, `#3C`, `Unit 3 C` for `Apt 3C`): the person',
  'other-zip': 'the record with another ZIP of the same city, where nobody held lives at the address: the person',
  'other-zip-initial': 'the first name cut to its initial with another ZIP of the city: the household only',
  'road-number-trap': 'the road with the next number (`State Hwy 62` for 61): nobody',
  'unit-letter-trap': 'the unit with another letter (`Apt 3D` for 3C): nobody',
};

export const MAILBOX_KINDS = ['mailbox-dots', 'mailbox-tag', 'mailbox-googlemail', 'mailbox-case', 'mailbox-dots-elsewhere'] as const;
export type MailboxKind = (typeof MAILBOX_KINDS)[number];

export const MAILBOX_DESCRIPTIONS: Readonly<Record<MailboxKind, string>> = {
  'mailbox-dots': 'a Gmail address with dots added or removed: the person',
  'mailbox-tag': 'a `+tag` at a provider with sub-addressing (Gmail, Outlook/Hotmail/Live/MSN, iCloud, Proton): the person',
  'mailbox-googlemail': 'a Gmail address at googlemail.com, dots changed too: the person',
  'mailbox-case': 'the address in upper or mixed case, with spaces around: the person',
  'mailbox-dots-elsewhere': 'a dot added or removed where dots make another mailbox (Yahoo, Outlook, Hotmail, AOL, iCloud): nobody',
};
