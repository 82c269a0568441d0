// Bulk clients in a process of their own (so that their timing is not the server's event loop):
// each sends its next POST on its keep-alive connection as soon as the last answer has arrived.
// argv: port path clients calls bodyFile; prints {"answered":N,"failures":[…]}.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

const [port, path, clients, calls, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile, 'utf8');
const failures = [];
let answered = 0;

function post(agent) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path,
        agent,
        rejectUnauthorized: false,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, elements: res.statusCode === 200 ? JSON.parse(text).length : 0 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function client() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < Number(calls); i++) {
    try {
      const answer = await post(agent);
      if (answer.status === 200) answered++;
      else failures.push(`status ${answer.status}`);
    } catch (error) {
      failures.push(String(error));
    }
  }
  agent.destroy();
}

await Promise.all(Array.from({ length: Number(clients) }, client));
process.stdout.write(JSON.stringify({ answered, failures }) + '\n');
