// A child of bench:manifest (manifest-servers.ts): node:http answering the bytes and headers Ferry
// answered, the floor any server adds to. Plain Node, like the Ferry child. Argument: port; the
// answer arrives over IPC.
import http from 'node:http';

const port = Number(process.argv[2]);
process.once('message', (canned) => {
  const body = Buffer.from(canned.body, 'base64');
  const headers = { ...canned.headers, 'content-length': body.length };
  const server = http.createServer((_request, response) => response.writeHead(200, headers).end(body));
  server.listen(port, '127.0.0.1', () => process.send?.('listening'));
});
process.once('disconnect', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0));
