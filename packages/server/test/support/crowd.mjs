// A crowd of devices, in a process of its own so that its work never counts against the server's
// event loop: `node crowd.mjs <json>` with { url, count, headers, warmUrl }.
// It first opens `count` keep-alive connections (one GET of warmUrl on each), as the devices'
// connections through a load balancer already are, prints "ready", and on a line on stdin makes
// `count` GETs of url at once, one per connection. It then prints one JSON line: per response its
// status, headers and body hash, and each distinct body of under 1 MiB once (base64), so the test
// can check it the way a device does.
import { createHash } from 'node:crypto';
import http from 'node:http';
import readline from 'node:readline';

const { url, count, headers, warmUrl } = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const bodies = new Map();

const get = (target, requestHeaders, keep) =>
  new Promise((resolve, reject) => {
    http
      .get(target, { agent, headers: requestHeaders }, (response) => {
        const hash = createHash('sha256');
        const chunks = [];
        let bytes = 0;
        response.on('data', (chunk) => {
          hash.update(chunk);
          bytes += chunk.length;
          if (keep && bytes < 1024 * 1024) chunks.push(chunk);
        });
        response.on('end', () => {
          const sha = hash.digest('base64url');
          if (keep && bytes < 1024 * 1024 && !bodies.has(sha))
            bodies.set(sha, Buffer.concat(chunks).toString('base64'));
          resolve({ status: response.statusCode, headers: response.headers, sha, bytes });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });

await Promise.all(Array.from({ length: count }, () => get(warmUrl, {}, false)));
process.stdout.write('ready\n');
const go = readline.createInterface({ input: process.stdin });
await new Promise((resolve) => go.once('line', resolve));
go.close();
const answers = await Promise.all(Array.from({ length: count }, () => get(url, headers, true)));
agent.destroy();
process.stdout.write(`${JSON.stringify({ answers, bodies: Object.fromEntries(bodies) })}\n`);
