import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REGISTRY_PORT, REPO_ROOT, registryPortOf } from '../scripts/local-registry.js';

describe('REGISTRY_PORT', () => {
  it.each([
    [undefined, DEFAULT_REGISTRY_PORT],
    ['', DEFAULT_REGISTRY_PORT],
    ['4874', 4874],
    [' 4875 ', 4875],
    ['65535', 65535],
  ])('%j is port %d', (raw, port) => {
    expect(registryPortOf(raw)).toBe(port);
  });

  it.each(['0', '65536', 'abc', '48.73', '-1', '4873x'])('%j is refused with its name', (raw) => {
    expect(() => registryPortOf(raw)).toThrow(/^Invalid REGISTRY_PORT/);
  });
});

describe('npm run registry:local on a port that is taken', () => {
  // What a newcomer met: an earlier registry still answering on the port. It answers the readiness
  // ping and refuses the new user, so without the port check the only error was "gave no token (401)".
  let occupant: http.Server;
  let port: number;
  beforeAll(async () => {
    occupant = http.createServer((request, response) => {
      if (request.url === '/-/ping') return void response.end('{}');
      response.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unregistered user"}');
    });
    await new Promise<void>((resolve) => occupant.listen(0, '127.0.0.1', resolve));
    ({ port } = occupant.address() as AddressInfo);
  });
  afterAll(() => new Promise((resolve) => occupant.close(resolve)));

  it('says the port is taken and names REGISTRY_PORT, before starting Verdaccio', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/local-registry.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, REGISTRY_PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).toContain(`Port ${port} is taken`);
    expect(stderr).toMatch(/REGISTRY_PORT=\d+ npm run registry:local/);
    expect(stderr).not.toContain('gave no token');
    expect(code).toBe(1);
  });
});
