/**
 * Scale-out (scale-out-scenario.ts) across "machines": the list files in an object store
 * (MAILSURE_LIST_STORE on s3rver, a real S3-protocol server on loopback), each process with a
 * data directory of its own, so nothing is shared on disk.
 */
import { startTestS3 } from '../helpers/s3-server.js';
import { runScaleOut } from './scale-out-scenario.js';

runScaleOut({ name: 'list files in an object store, no shared directory', objectStore: () => startTestS3() });
