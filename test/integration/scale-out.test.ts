/** Scale-out (scale-out-scenario.ts) with every process on one shared data directory. */
import { runScaleOut } from './scale-out-scenario.js';

runScaleOut({ name: 'one shared data directory' });
