/**
 * One well-behaved client in its own process (so that the load generator's event loop does not
 * add to its latencies): `count` sequential GET requests over one keep-alive HTTPS connection,
 * after `warmup` unmeasured ones. Prints the latencies in milliseconds as one JSON array.
 *
 * argv: port path warmup count
 */
import { Agent, request } from 'node:https';

const [port, path, warmup, count] = [Number(process.argv[2]), process.argv[3]!, Number(process.argv[4]), Number(process.argv[5])];
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: '127.0.0.1', port, path, agent, rejectUnauthorized: false }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

for (let i = 0; i < warmup; i++) await get();
const latencies: number[] = [];
for (let i = 0; i < count; i++) latencies.push(await get());
agent.destroy();
process.stdout.write(JSON.stringify(latencies) + '\n');
