/**
 * `node --import` this file (e.g. through NODE_OPTIONS) to record every ES module the process
 * loads, one URL a line, in the file MAILSURE_TEST_MODULE_LOG names: a test can then say which of
 * our modules a command loaded, whatever the machine's speed.
 */
import { register } from 'node:module';

register('./record-modules-hooks.mjs', import.meta.url, { data: { log: process.env.MAILSURE_TEST_MODULE_LOG } });
