import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('../..', import.meta.url));
const repoDir = path.resolve(webDir, '../..');
export const SERVER_LOG = path.join(webDir, 'test-results', 'e2e-server.log');

/** Waits for the e2e server's one JSON line on stdout. */
function readAddressLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`e2e server exited (${code}); see ${SERVER_LOG}`)));
  });
}

/**
 * Builds the web app from the current sources (as `npm ci` does), starts the e2e server, and hands
 * its addresses to the tests through the environment. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const vitePackage = createRequire(path.join(webDir, 'package.json')).resolve('vite/package.json');
  const vite = path.join(path.dirname(vitePackage), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });

  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const log = fs.openSync(SERVER_LOG, 'w');
  const child = spawn(
    process.execPath,
    ['--conditions=@ferry/source', '--import', 'tsx', path.join(webDir, 'e2e', 'support', 'e2e-server.ts')],
    {
      cwd: repoDir,
      stdio: ['ignore', 'pipe', log],
      env: { ...process.env, NODE_ENV: 'test' },
    },
  );
  const address = JSON.parse(await readAddressLine(child)) as {
    url: string;
    operatorToken: string;
    simulators: Record<'VENDOR_A' | 'VENDOR_B', string>;
  };
  process.env.FERRY_E2E_URL = address.url;
  process.env.FERRY_E2E_OPERATOR_TOKEN = address.operatorToken;
  process.env.FERRY_E2E_VENDOR_A_URL = address.simulators.VENDOR_A;
  process.env.FERRY_E2E_VENDOR_B_URL = address.simulators.VENDOR_B;
  process.env.FERRY_E2E_SERVER_LOG = SERVER_LOG;

  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.closeSync(log);
  };
}
