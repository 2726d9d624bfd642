import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

const harnessDir = fileURLToPath(new URL('../..', import.meta.url));
const repoDir = path.resolve(harnessDir, '../../..');
const SERVER_LOG = path.join(harnessDir, 'test-results', 'e2e-server.log');
/** The web funnel's e2e server: the real app, SQLite in a temp dir, both vendor simulators in-process. */
const E2E_SERVER = path.join(repoDir, 'apps', 'web', 'e2e', 'support', 'e2e-server.ts');

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
 * Builds the harness page from the current sources, starts the e2e server, and hands its addresses
 * to the tests through the environment (the same variables the web funnel's fixtures read).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin', 'vite.js');
  execFileSync(process.execPath, [vite, 'build', '-c', path.join(harnessDir, 'vite.config.ts'), '--logLevel', 'warn'], {
    cwd: harnessDir,
    stdio: 'inherit',
  });

  fs.mkdirSync(path.dirname(SERVER_LOG), { recursive: true });
  const log = fs.openSync(SERVER_LOG, 'w');
  const child = spawn(process.execPath, ['--conditions=@ferry/source', '--import', 'tsx', E2E_SERVER], {
    cwd: repoDir,
    stdio: ['ignore', 'pipe', log],
    env: { ...process.env, NODE_ENV: 'test' },
  });
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
