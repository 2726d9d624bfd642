/**
 * A throwaway npm registry (Verdaccio) on loopback with every Ferry package published to it, for
 * trying Ferry before a release and for the end-to-end tests that install Ferry the way a team
 * does. It serves the @ferry scope only: consumers point that scope at it (`@ferry:registry=…`)
 * and take everything else from their usual registry.
 *
 * `npm run registry:local` starts one and keeps it running until interrupted.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The published packages, in dependency order. */
export const FERRY_PACKAGES = ['contracts', 'certificate-flow', 'dev-tools', 'cli', 'server', 'expo'] as const;

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** `.npmrc` lines that take @ferry/* from this registry and nothing else. */
  scopeNpmrc: string;
  /** Publishes every Ferry package as built in this checkout (run `npm run build` first). */
  publishAll(): void;
  stop(): Promise<void>;
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`verdaccio exited with ${code}:\n${output()}`))),
  );
  const ping = async (): Promise<void> => {
    for (;;) {
      try {
        if ((await fetch(new URL('-/ping', url))).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  await Promise.race([ping(), exited]);
}

/** The port `npm run registry:local` uses unless REGISTRY_PORT names another. */
export const DEFAULT_REGISTRY_PORT = 4873;

/** A refusal to start, with what to do about it; the command prints its message alone. */
export class LocalRegistryError extends Error {}

/** REGISTRY_PORT, checked: a TCP port number, or the default when unset. */
export function registryPortOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_REGISTRY_PORT;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 1 || port > 65535) {
    throw new LocalRegistryError(`Invalid REGISTRY_PORT: "${raw}" is not a TCP port (1-65535).`);
  }
  return port;
}

/**
 * Refuses a port something already listens on. Without this check Verdaccio fails to bind but the
 * readiness ping reaches whatever holds the port (often a registry:local left running), and the
 * first visible error is that server refusing our new user ("gave no token (401)").
 */
async function assertPortFree(port: number): Promise<void> {
  const probe = net.createServer();
  const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    probe.once('error', resolve);
    probe.listen(port, '127.0.0.1', () => resolve(undefined));
  });
  if (!error) {
    await new Promise((resolve) => probe.close(resolve));
    return;
  }
  if (error.code === 'EADDRINUSE') {
    throw new LocalRegistryError(
      [
        `Port ${port} is taken: something already listens on 127.0.0.1:${port} (a registry:local still running?).`,
        `Stop it, or choose another port: REGISTRY_PORT=${port === 65535 ? 4874 : port + 1} npm run registry:local`,
      ].join('\n'),
    );
  }
  throw new LocalRegistryError(`Cannot listen on 127.0.0.1:${port} (${error.code ?? error.message}).`);
}

export async function startLocalRegistry(options: { port?: number } = {}): Promise<LocalRegistry> {
  if (options.port !== undefined) await assertPortFree(options.port);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-registry-'));
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    [
      `storage: ${path.join(dir, 'storage')}`,
      'auth:',
      `  htpasswd: { file: ${path.join(dir, 'htpasswd')}, max_users: 10 }`,
      // No uplinks: everything outside @ferry comes from the consumer's own registry.
      'uplinks: {}',
      'packages:',
      "  '@ferry/*': { access: $all, publish: $authenticated, unpublish: $authenticated }",
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}/`;
  const bin = path.join(REPO_ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
  const child = spawn(
    process.execPath,
    [bin, '--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  let token: string | undefined;
  try {
    await waitUntilUp(url, child, () => out);
    // A user of its own, for the publish token.
    const response = await fetch(new URL('-/user/org.couchdb.user:ferry', url), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ferry', password: `local-${port}-${Date.now()}` }),
    });
    ({ token } = (await response.json()) as { token?: string });
    if (!token) throw new Error(`the local registry gave no token (${response.status})`);
  } catch (error) {
    await stop();
    throw error;
  }
  const publishNpmrc = path.join(dir, 'publish.npmrc');
  fs.writeFileSync(publishNpmrc, `//127.0.0.1:${port}/:_authToken=${token}\n`);

  return {
    url,
    scopeNpmrc: `@ferry:registry=${url}\n`,
    publishAll() {
      for (const name of FERRY_PACKAGES) {
        const result = spawnSync('npm', ['publish', '--registry', url, '--userconfig', publishNpmrc], {
          cwd: path.join(REPO_ROOT, 'packages', name),
          encoding: 'utf8',
        });
        if (result.status !== 0) throw new Error(`npm publish of @ferry/${name} failed:\n${result.stderr}`);
      }
    },
    stop,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let registry: LocalRegistry;
  try {
    registry = await startLocalRegistry({ port: registryPortOf(process.env.REGISTRY_PORT) });
  } catch (error) {
    if (!(error instanceof LocalRegistryError)) throw error;
    process.stderr.write(`registry:local: ${error.message}\n`);
    process.exit(1);
  }
  registry.publishAll();
  process.stdout.write(
    [
      `Ferry's packages (${FERRY_PACKAGES.map((name) => `@ferry/${name}`).join(', ')}) are published at ${registry.url}`,
      'Install them in an app with the @ferry scope pointed here, for example:',
      `  npm install --@ferry:registry=${registry.url} @ferry/expo && npm install -D --@ferry:registry=${registry.url} @ferry/cli`,
      "or put this line in the app's .npmrc:",
      `  ${registry.scopeNpmrc.trim()}`,
      'Press Ctrl-C to stop (the registry and its storage are thrown away).',
      '',
    ].join('\n'),
  );
  const stop = () => void registry.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
