import { describe, expect, it } from 'vitest';
import { prepareRecord } from './prepared-record.js';

describe('a prepared record', () => {
  it('keeps the person fields in the reference order, without empty values, with the ZIP5 and interests as an object', () => {
    const person = {
      zip: '78701-1234',
      fields: { age: '25-34', gender: 'Female', rfm_avg_dollars: 120, education: '' },
      interests: ['pets', 'travel'],
    };
    expect(prepareRecord(person)).toEqual({
      json: '{"age":"25-34","gender":"Female","zip":"78701","rfm_avg_dollars":120,"interests":{"pets":true,"travel":true}}',
      fields: 5,
    });
    expect(prepareRecord({ zip: '', fields: {}, interests: [] })).toEqual({ json: '{}', fields: 0 });
  });
});
