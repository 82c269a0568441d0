/**
 * The verification pipeline for one address. This slice decides at depth `syntax`; the domain,
 * policy and mailbox stages plug in after it (verification issue).
 */
import { classifySyntax } from './syntax.js';
import type { Verdict } from './verdict.js';

export const SYNTAX_OK = 10;

export interface VerifyOptions {
  /** Upper bound for the whole verdict; past it the answer is code 5. */
  timeoutMs: number;
}

export interface VerifyService {
  verify(input: string, options: VerifyOptions): Promise<Verdict>;
}

export function createVerifyService(): VerifyService {
  return {
    async verify(input) {
      const syntax = classifySyntax(input);
      if (!syntax.ok) return { address: input, code: syntax.code, roleAccount: syntax.roleAccount };
      return { address: syntax.address, code: SYNTAX_OK, roleAccount: syntax.roleAccount };
    },
  };
}
