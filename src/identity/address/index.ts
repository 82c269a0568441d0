export { parseStreet, type ParsedStreet } from './parse-street.js';
