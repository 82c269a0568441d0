import { describe, expect, it } from 'vitest';
import { AppError, ERROR_STATUSES, errors, statusDescription } from './errors.js';

/** Every factory called with plausible arguments: the catalogue's errors, one of each. */
function everyError(): [string, AppError][] {
  return Object.entries(errors).map(([name, factory]) => {
    const make = factory as (...args: unknown[]) => AppError;
    return [
      name,
      name === 'fromFramework' ? make(418, 'teapot') : make(...Array.from({ length: make.length }, (_, i) => (i === 0 ? 'x' : 3))),
    ];
  });
}

describe('the error catalogue', () => {
  it('renders every body as {"error_code","error_msg"}, in that order', () => {
    expect(JSON.stringify(errors.appendNotPermitted('postal_append').toBody())).toBe(
      '{"error_code":403,"error_msg":"API key is not configured for postal append"}',
    );
    expect(JSON.stringify(errors.dependencyNotAnswering('redis').toBody())).toBe('{"error_code":503,"error_msg":"redis is not answering"}');
  });

  it('describes the status of every error a factory makes, beside that factory', () => {
    for (const [name, error] of everyError()) {
      if (name === 'fromFramework') continue;
      expect(ERROR_STATUSES, name).toContain(error.status);
      expect(statusDescription(error.status).description.length, name).toBeGreaterThan(10);
    }
    expect(() => statusDescription(418)).toThrow('No error status 418');
  });

  it('asks a client to wait exactly where the status says it does', () => {
    for (const [name, error] of everyError()) {
      if (name === 'fromFramework' || name === 'dependencyNotAnswering') continue;
      const waits = statusDescription(error.status).retryAfter !== undefined;
      expect('retry-after' in error.headers, name).toBe(waits);
    }
  });
});
