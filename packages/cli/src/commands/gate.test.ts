import { execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachEngine } from '../../../server/test/support/engines.js';
import { releasePayload, storeAssets } from '../../../server/test/support/releases.js';
import { startTestServer, type TestServer } from '../../../server/test/support/test-server.js';
import { appFiles, RELEASE_FILE } from '../../test/support/app-fixture.js';
import { fakeInspector } from '../../test/support/fake-inspector.js';
import { GitFixture } from '../../test/support/git-fixture.js';
import { runCommand } from '../../test/support/run-command.js';
import { gateCommand } from './gate.js';

const IOS_RV = '1.4.0(17)';
const ANDROID_RV = '1.4.0(41)';

/** A fixture app with a native-affected head (the release control file changed) and a JS-only one. */
async function fixtureRepository() {
  const fixture = await GitFixture.create(appFiles());
  const base = await fixture.git('rev-parse', 'HEAD');
  const jsOnly = await fixture.commit('js only', { 'src/screens/Home.tsx': 'export const Home = () => 2;\n' });
  await fixture.git('checkout', '--quiet', '--detach', base);
  const native = await fixture.commit('native', {
    'release.js': RELEASE_FILE.replace('IS_PRERELEASE = false', 'IS_PRERELEASE = false '),
  });
  return { fixture, base, jsOnly, native };
}

async function publish(
  server: TestServer,
  platform: 'ios' | 'android',
  runtimeVersion: string,
  fingerprint: string | null,
) {
  const payload = releasePayload({ platform, runtimeVersion, fingerprint });
  await storeAssets(server, payload);
  const response = await server.authed('/api/updates/release', {
    method: 'POST',
    body: JSON.stringify(payload),
  });
  expect(response.status).toBe(201);
}

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let repo: Awaited<ReturnType<typeof fixtureRepository>>;
beforeAll(async () => {
  repo = await fixtureRepository();
});
afterAll(() => repo.fixture.cleanup());

/** Checks `head` out (the gate inspects the working tree) and builds the arguments. */
const gateArgs = (head: string, server?: string) => {
  execFileSync('git', ['checkout', '--quiet', '--detach', head], { cwd: repo.fixture.dir });
  return ['gate', '--base', repo.base, '--project', repo.fixture.dir, ...(server ? ['--server', server] : [])];
};

describeEachEngine('ferry gate against a real server', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
    await publish(server, 'ios', IOS_RV, 'fp-ios-base');
    await publish(server, 'android', ANDROID_RV, 'fp-android-base');
    await publish(server, 'ios', '1.3.0(12)', null);
  });
  afterAll(() => server.close());

  it('same runtimeVersion, different fingerprint: blocks with an error annotation and exit 1', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-base' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.native, server.url));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error title=Ferry gate \(ios\)::ios: the native fingerprint changed on runtimeVersion 1\.4\.0\(17\)/m,
    );
    expect(run.stdout).not.toMatch(/::error title=Ferry gate \(android\)/);
    expect(run.stdout).toMatch(/gate: blocked/);
    expect(run.outputs.blocked).toBe('true');
    expect(run.summary).toContain('| Platform | runtimeVersion | Head fingerprint | Baseline | Verdict |');
    expect(run.summary).toContain('| ios | 1.4.0(17) | fp-ios-head | fp-ios-base | block (native-changed) |');
    expect(run.summary).toContain(
      '| android | 1.4.0(41) | fp-android-base | fp-android-base | pass (same-fingerprint) |',
    );
  });

  it('same runtimeVersion, same fingerprint: passes quietly', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-base' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-base' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.native, server.url));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/^::(error|warning)/m);
    expect(run.outputs.blocked).toBe('false');
  });

  it('a new runtimeVersion (no production release of it): passes with a notice', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: '1.4.0(18)', fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: '1.4.0(42)', fingerprint: 'fp-android-head' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.native, server.url));
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^::notice title=Ferry gate \(ios\)::ios: no production release exists for 1\.4\.0\(18\)/m,
    );
    expect(run.summary).toContain('| ios | 1.4.0(18) | fp-ios-head | — | pass (new-track) |');
  });

  it('no baseline (the newest release stored no fingerprint): passes', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: '1.3.0(12)', fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-base' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.native, server.url));
    expect(run.code).toBe(0);
    expect(run.summary).toContain('| ios | 1.3.0(12) | fp-ios-head | none stored | pass (no-baseline) |');
  });

  it('the baseline endpoint answers 404 without naming the track (not a Ferry base URL): blocks; with --allow-unreachable it warns and passes', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-head' },
    });
    const args = gateArgs(repo.native, `${server.url}/not-ferry`);
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), args);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error title=Ferry gate \(ios\)::ios: the baseline endpoint answered 404 .*so it blocks.*--allow-unreachable/m,
    );
    expect(run.summary).toContain('block (endpoint-not-found)');
    expect(run.outputs.blocked).toBe('true');

    const allowed = await runCommand(gateCommand({ inspectorFor: inspector }), [...args, '--allow-unreachable']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(
      /^::warning title=Ferry gate \(ios\)::ios: the baseline endpoint answered 404.*passing without a decision \(--allow-unreachable\)/m,
    );
    expect(allowed.summary).toContain('pass (warning: no decision) (endpoint-not-found)');
  });

  it('--allow-unreachable changes nothing where the server answers: a changed fingerprint still blocks', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-base' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), [
      ...gateArgs(repo.native, server.url),
      '--allow-unreachable',
    ]);
    expect(run.code).toBe(1);
    expect(run.summary).toContain('| ios | 1.4.0(17) | fp-ios-head | fp-ios-base | block (native-changed) |');
    expect(run.stdout).not.toMatch(/^::warning/m);
  });

  it('reads OTA_SERVER_URL when --server is not given', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-base' },
    });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.native), {
      OTA_SERVER_URL: server.url,
    });
    expect(run.code).toBe(1);
  });
});

describe('ferry gate without a decision', () => {
  it('native not affected: passes without resolving anything', async () => {
    const inspector = fakeInspector({ ios: new Error('must not run'), android: new Error('must not run') });
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), gateArgs(repo.jsOnly, 'http://127.0.0.1:9'));
    expect(run.code).toBe(0);
    expect(inspector.calls).toBe(0);
    expect(run.stdout).toMatch(/native-affected: not-affected/);
    expect(run.summary).toContain('| ios | — | — | — | pass (not-affected) |');
  });

  it('an unknown base counts as affected', async () => {
    const inspector = fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'x' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'y' },
    });
    const args = gateArgs(repo.jsOnly, 'http://127.0.0.1:9');
    args[2] = 'origin/does-not-exist';
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), args);
    expect(run.stdout).toMatch(/native-affected: affected/);
    expect(inspector.calls).toBeGreaterThan(0);
  });

  const decidable = () =>
    fakeInspector({
      ios: { runtimeVersion: IOS_RV, fingerprint: 'fp-ios-head' },
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-head' },
    });

  it('a refused connection: blocks (exit 1) with an error annotation that names --allow-unreachable', async () => {
    const port = await closedPort();
    const run = await runCommand(
      gateCommand({ inspectorFor: decidable() }),
      gateArgs(repo.native, `http://127.0.0.1:${port}`),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error title=Ferry gate \(ios\)::ios: the baseline could not be read: cannot reach .*ECONNREFUSED\. Without the production baseline the gate cannot decide, so it blocks: .*or pass --allow-unreachable to let it pass with a warning$/m,
    );
    expect(run.stdout).toMatch(/^::error title=Ferry gate \(android\)::/m);
    expect(run.stdout).toMatch(/^gate: blocked$/m);
    expect(run.stderr).toMatch(/the gate blocks this change/);
    expect(run.summary).toContain('| ios | 1.4.0(17) | fp-ios-head | — | block (unreachable) |');
    expect(run.outputs.blocked).toBe('true');
  });

  it('a refused connection with --allow-unreachable: warns and passes, and the annotation says why', async () => {
    const port = await closedPort();
    const run = await runCommand(gateCommand({ inspectorFor: decidable() }), [
      ...gateArgs(repo.native, `http://127.0.0.1:${port}`),
      '--allow-unreachable',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^::warning title=Ferry gate \(ios\)::ios: the baseline could not be read: cannot reach .*ECONNREFUSED; passing without a decision \(--allow-unreachable\)$/m,
    );
    expect(run.stdout).toMatch(/^::warning title=Ferry gate \(android\)::/m);
    expect(run.stdout).toMatch(/^gate: passed$/m);
    expect(run.outputs.blocked).toBe('false');
  });

  it('a host that does not resolve: blocks', async () => {
    // .invalid never resolves (RFC 2606).
    const run = await runCommand(
      gateCommand({ inspectorFor: decidable() }),
      gateArgs(repo.native, 'http://ferry-gate-test.invalid'),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error title=Ferry gate \(ios\)::ios: the baseline could not be read: cannot reach http:\/\/ferry-gate-test\.invalid: (ENOTFOUND|EAI_AGAIN)/m,
    );
  });

  it.each([
    [503, 'UNAVAILABLE'],
    [401, 'UNAUTHORIZED'],
  ])('a server that answers %i: blocks, naming the status', async (status, code) => {
    let requests = 0;
    const answering = http.createServer((_request, response) => {
      requests += 1;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code, message: 'no', details: {} } }));
    });
    await new Promise<void>((resolve) => answering.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = answering.address() as net.AddressInfo;
      const run = await runCommand(gateCommand({ inspectorFor: decidable() }), [
        ...gateArgs(repo.native, `http://127.0.0.1:${port}`),
        '--platform',
        'ios',
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        new RegExp(
          `^::error title=Ferry gate \\(ios\\)::ios: the baseline could not be read: the server answered ${status} \\(${code}: no\\)\\. .*so it blocks`,
          'm',
        ),
      );
      // 5xx is retried (three attempts); a 401 is an answer, asked once.
      expect(requests).toBe(status >= 500 ? 3 : 1);
    } finally {
      await new Promise<void>((resolve) => answering.close(() => resolve()));
    }
  });

  it('a compute error: blocks, with --allow-unreachable too', async () => {
    const inspector = fakeInspector({
      ios: new Error('The ios fingerprint lacks the react-native package'),
      android: { runtimeVersion: ANDROID_RV, fingerprint: 'fp-android-head' },
    });
    const port = await closedPort();
    const run = await runCommand(gateCommand({ inspectorFor: inspector }), [
      ...gateArgs(repo.native, `http://127.0.0.1:${port}`),
      '--allow-unreachable',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^::error title=Ferry gate \(ios\)::ios: could not resolve runtimeVersion and fingerprint \(The ios fingerprint lacks/m,
    );
    expect(run.stdout).toMatch(/^::warning title=Ferry gate \(android\)::.*--allow-unreachable/m);
  });

  it('no server configured: blocks; with --allow-unreachable it warns and passes', async () => {
    const run = await runCommand(gateCommand({ inspectorFor: decidable() }), gateArgs(repo.native));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error .*no server given.*--allow-unreachable/m);
    const allowed = await runCommand(gateCommand({ inspectorFor: decidable() }), [
      ...gateArgs(repo.native),
      '--allow-unreachable',
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^::warning .*no server given/m);
  });
});
