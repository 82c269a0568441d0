/**
 * What the address itself decides, before any list or network answer, pure: a large provider's
 * domain misspelt (505, decisions §4), a mailbox that must never be mailed (500), and the end of
 * the pipeline at depth `syntax` (10). Also the pipeline's own failure (999), wherever it happens.
 */
import type { VerifyDepth } from '../core/config.js';
import { decided, type Decision } from './rules.js';

/**
 * `caroline@gmial.com`: 505 for every key, at any depth and whatever our prober's health (a fact
 * about the input, not a network result), unless the key's own lists name the address (its
 * exception, 55, wins; its suppression, 255, is invalid all the same: the lists answer those).
 */
export function decideTypo(misspeltLargeProvider: boolean, onClientList: boolean): Decision | undefined {
  return misspeltLargeProvider && !onClientList ? TYPO : undefined;
}

/** abuse@, postmaster@ and the like (domain-facts/dangerous-mailboxes.ts). */
export function decideMailboxName(dangerous: boolean): Decision | undefined {
  return dangerous ? DANGEROUS : undefined;
}

/** Depth `syntax` stops once the lists and the domain's name have had their say. */
export function decideSyntaxDepth(depth: VerifyDepth): Decision | undefined {
  return depth === 'syntax' ? SYNTAX_OK : undefined;
}

/** Our own failure at any stage: logged, and answered 999. */
export const SYSTEM_ERROR: Decision = decided('system.error');

const TYPO = decided('typo.large-provider');
const DANGEROUS = decided('address.dangerous-mailbox');
const SYNTAX_OK = decided('syntax.ok');
