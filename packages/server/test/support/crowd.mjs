// A crowd of devices, in a process of its own so that its work never counts against the server's
// event loop: `node crowd.mjs <json>` with { url, count, headers } makes `count` GETs at once and
// prints one JSON line: per response its status, headers and body hash, and each distinct body of
// under 1 MiB once (base64) so the test can check it the way a device does.
import { createHash } from 'node:crypto';
import http from 'node:http';

const { url, count, headers } = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const bodies = new Map();

const one = () =>
  new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (response) => {
        const hash = createHash('sha256');
        const chunks = [];
        let bytes = 0;
        response.on('data', (chunk) => {
          hash.update(chunk);
          bytes += chunk.length;
          if (bytes < 1024 * 1024) chunks.push(chunk);
        });
        response.on('end', () => {
          const sha = hash.digest('base64url');
          if (bytes < 1024 * 1024 && !bodies.has(sha)) bodies.set(sha, Buffer.concat(chunks).toString('base64'));
          resolve({ status: response.statusCode, headers: response.headers, sha, bytes });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });

const answers = await Promise.all(Array.from({ length: count }, one));
agent.destroy();
process.stdout.write(`${JSON.stringify({ answers, bodies: Object.fromEntries(bodies) })}\n`);
