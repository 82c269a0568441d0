// US postal reference: does a ZIP exist, and agree with the state and city given?
export { checkPostal, zip5sFor, stateOfZip, cityOfZip, loadZipReference, type PostalQuery, type PostalCheck } from './zip-reference.js';
export { cityKey } from './city-key.js';
export { INVALID_ZIP, INVALID_STATE, MISSING_POSTAL, zipNotFound, zipNotInState, zipNotInCity, cityNotInState } from './postal-reasons.js';
