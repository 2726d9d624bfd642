/**
 * bench:patch — bundle patches (issue 36, src/ota/patches) on the example app's real Hermes bundles.
 *   (a) patch size: the server's own makePatch (bsdiff-node, BSDIFF40) from the example app's launch
 *       bundle to the same app after a one-line change (App.tsx's title) and after a larger one (a
 *       new screen of about 80 lines, opened from a new menu entry), per platform, against what a
 *       full download sends: the brotli form the server stores (asset-encodings.ts compress).
 *       Target: one-line ≤ 0.25 × brotli full.
 *   (b) time to make a patch of a 5 MiB bundle. The app's bundles are smaller, so the 5 MiB base is
 *       their bytes concatenated (ios, android, ios, …) and cut at 5 MiB, and the target the same of
 *       the one-line change's bundles: real bundle bytes, at 5 MiB. makePatch, then applyPatch (the
 *       maker checks every patch by applying it), BENCH_PATCH_REPEATS times (3).
 *   (c) the manifest path while patches are made: the built server (servers/ferry.mjs, as in
 *       bench:manifest: dist/, SQLite, local objects), one warm track measured with wrk
 *       (wrk/manifest.lua; 1 thread, BENCH_CONNECTIONS 50, BENCH_DURATION_SECONDS 10 per run), in
 *       BENCH_ROUNDS (3) rounds of two runs: without patch work, and while the server makes patches
 *       (the order flips each round). Right before a "while" run, releases of 5 MiB bundles (those
 *       of (b), a few bytes apart; uploaded, and so compressed, at set-up) are published on another
 *       track, each queueing patches from that track's three previous releases (PATCH_BASES), enough
 *       for the run's length at the time (b) measured. A "while" run counts only when a patch was
 *       still pending after it ended: the maker, which makes one patch at a time, was busy
 *       throughout. A "without" run starts with none pending. The ratio is p99 while / without in
 *       the same round; the table gives the median and range over rounds. Target ≤ 1.2.
 *
 * Where the real bundles come from, the first that applies:
 *   1. BENCH_PATCH_APP=<dir>: an installed copy of examples/expo-app (its node_modules present);
 *   2. the newest app `E2E_KEEP=1 npm run e2e:expo` kept (<tmp>/ferry-e2e-…/expo-app);
 *   3. <tmp>/ferry-bench-patch/expo-app, installed by an earlier run of this benchmark;
 *   4. otherwise this benchmark installs one there as e2e:expo does (builds the packages, publishes
 *      them to a throwaway local registry, copies the example's files, `npm install`): minutes, once.
 * In that app each variant's App.tsx (made from this checkout's examples/expo-app/App.tsx) is put in
 * place for `npx expo export --platform ios --platform android --output-dir
 * <tmp>/ferry-bench-patch/exports/<variant>`, and the app's own App.tsx is put back. An export is
 * reused while its App.tsx and the app's lockfile are the same (BENCH_PATCH_REEXPORT=1 redoes it).
 * When no app can be installed (no registry reachable), every part runs on a synthetic JavaScript
 * bundle instead and every row says SYNTHETIC: those are not a Hermes bundle's figures.
 *
 * Exit code 1 when wrk is missing, the server did not start, a wrk run saw errors, a patch did not
 * give its target, or no "while" run had the maker busy throughout.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { ReleaseListResponse } from '@ferry/contracts';
import { freePort } from '../../../scripts/free-port.js';
import { REPO_ROOT, startLocalRegistry } from '../../../scripts/local-registry.js';
import { cleanEnv, runOk } from '../../../test/e2e/support/sandbox.js';
import { SLOW_HANG_GUARD_MS } from '../../../test/support/hang-guard.cjs';
import { applyPatch, makePatch } from '../src/ota/patches/bsdiff.js';
import { compress } from '../src/storage/objects/asset-encodings.js';
import { median, printTable } from './bench-stats.js';
import { buildServer, type Server, startServer, stopServer, writeSigningKey } from './manifest-servers.js';
import { type File, fileOf, get, javascriptBundle, Publisher } from './publish-over-http.js';
import { runWrk, type WrkResult, wrkAvailable } from './wrk-runner.js';

const LUA = fileURLToPath(new URL('./wrk/manifest.lua', import.meta.url));
const SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const REPEATS = Math.max(1, Number(process.env.BENCH_PATCH_REPEATS ?? 3));
const TOKEN = 'bench-release-token-0123456789';
const MIB = 1024 * 1024;
const BIG_BYTES = 5 * MIB;
/** What the server defaults to (PATCH_BASES): each release gets patches from this many earlier ones. */
const PATCH_BASES = 3;
/** The measured track (wrk/manifest.lua: prefix + 0) and the track whose releases make the patch work. */
const MEASURED_RUNTIME = '1.0.0';
const PATCH_RUNTIME = '2.0.0';
const PATCH_TRACK = { channel: 'production', platform: 'ios', runtimeVersion: PATCH_RUNTIME };

const CACHE = path.join(os.tmpdir(), 'ferry-bench-patch');
const EXAMPLE = path.join(REPO_ROOT, 'examples/expo-app');
const PLATFORMS = ['ios', 'android'] as const;
type Platform = (typeof PLATFORMS)[number];
const VARIANTS = ['base', 'one-line', 'larger'] as const;
type Variant = (typeof VARIANTS)[number];
type Bundles = Record<Variant, Record<Platform, Buffer>>;

const failures: string[] = [];
const log = (line: string) => process.stderr.write(`${line}\n`);
const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

// ── The app's changes.

const TITLE_LINE = '<Text style={styles.title}>Ferry example</Text>';

/** A new screen (a list of release notes with a filter and expandable entries) and its menu entry. */
const NEW_SCREEN = `
const RELEASE_NOTES = [
  { version: '1.4.0', date: '2026-03-02', items: ['Certificates open from a link', 'Faster start-up'] },
  { version: '1.3.2', date: '2026-02-11', items: ['Fixes the banner on small screens'] },
  { version: '1.3.0', date: '2026-01-20', items: ['Dark mode', 'A new menu', 'Korean labels reviewed'] },
  { version: '1.2.0', date: '2025-12-01', items: ['Updates download in the background'] },
  { version: '1.1.0', date: '2025-10-14', items: ['Issue certificates from the app', 'Accessibility labels'] },
];

function ReleaseNotes({ onClose }: { onClose: () => void }) {
  const [open, setOpen] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const visible = RELEASE_NOTES.filter(
    (note) =>
      query === '' ||
      note.version.includes(query) ||
      note.items.some((item) => item.toLowerCase().includes(query.toLowerCase())),
  );
  return (
    <View style={notes.screen}>
      <Text style={notes.heading}>What's new</Text>
      <TextInput
        value={query}
        onChangeText={setQuery}
        placeholder="Search the notes"
        accessibilityLabel="Search the release notes"
        style={notes.search}
      />
      {visible.length === 0 ? <Text style={notes.empty}>Nothing matches "{query}".</Text> : null}
      {visible.map((note) => (
        <Pressable
          key={note.version}
          accessibilityRole="button"
          onPress={() => setOpen((current) => (current === note.version ? null : note.version))}
          style={notes.entry}
        >
          <Text style={notes.version}>
            {note.version} · {note.date}
          </Text>
          {open === note.version
            ? note.items.map((item) => (
                <Text key={item} style={notes.item}>
                  • {item}
                </Text>
              ))
            : null}
        </Pressable>
      ))}
      <Pressable accessibilityRole="button" onPress={onClose} style={styles.menu}>
        <Text style={styles.menuText}>Close</Text>
      </Pressable>
    </View>
  );
}

const notes = StyleSheet.create({
  screen: { flex: 1, padding: 24, gap: 12, backgroundColor: '#FFFFFF' },
  heading: { fontSize: 24, fontWeight: '700' },
  search: { borderWidth: 1, borderColor: '#D1D5DB', borderRadius: 8, paddingHorizontal: 12, minHeight: 44 },
  empty: { color: '#6B7280' },
  entry: { paddingVertical: 12, borderBottomWidth: 1, borderBottomColor: '#E5E7EB' },
  version: { fontSize: 17, fontWeight: '600' },
  item: { marginTop: 4, color: '#374151' },
});
`;

/** Replaces `from`, which must occur exactly once. */
function replaceOnce(text: string, from: string, to: string): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`examples/expo-app/App.tsx should contain ${JSON.stringify(from)} once`);
  return parts.join(to);
}

function appSource(variant: Variant, original: string): string {
  if (variant === 'base') return original;
  if (variant === 'one-line')
    return replaceOnce(original, TITLE_LINE, '<Text style={styles.title}>Ferry example, patched</Text>');
  let source = replaceOnce(
    original,
    "import { Image, Linking, Pressable, StyleSheet, Text, View } from 'react-native';",
    "import { Image, Linking, Pressable, StyleSheet, Text, TextInput, View } from 'react-native';",
  );
  source = replaceOnce(
    source,
    '  const update = useOtaUpdatePolicy();\n',
    '  const update = useOtaUpdatePolicy();\n  const [showNotes, setShowNotes] = useState(false);\n',
  );
  source = replaceOnce(
    source,
    '  if (certificate) {\n',
    '  if (showNotes) return <ReleaseNotes onClose={() => setShowNotes(false)} />;\n\n  if (certificate) {\n',
  );
  source = replaceOnce(
    source,
    '      <OtaUpdateBanner update={update} />\n      <StatusBar',
    '      <Pressable accessibilityRole="button" onPress={() => setShowNotes(true)} style={styles.menu}>\n' +
      "        <Text style={styles.menuText}>What's new</Text>\n      </Pressable>\n" +
      '      <OtaUpdateBanner update={update} />\n      <StatusBar',
  );
  return replaceOnce(source, 'const styles = StyleSheet.create(', `${NEW_SCREEN}\nconst styles = StyleSheet.create(`);
}

// ── Finding or installing the example app, and exporting it.

const installed = (app: string) => fs.existsSync(path.join(app, 'node_modules/.bin/expo'));

function findApp(): string | undefined {
  const named = process.env.BENCH_PATCH_APP;
  if (named) {
    if (!installed(named)) throw new Error(`BENCH_PATCH_APP=${named} has no node_modules/.bin/expo: install it first`);
    return path.resolve(named);
  }
  const kept = fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith('ferry-e2e-'))
    .map((name) => path.join(os.tmpdir(), name, 'expo-app'))
    .filter(installed)
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (kept[0]) return kept[0];
  const own = path.join(CACHE, 'expo-app');
  return installed(own) ? own : undefined;
}

/** What e2e:expo does up to its install: the example's files and the @ferry packages from a local registry. */
async function installApp(): Promise<string> {
  const app = path.join(CACHE, 'expo-app');
  fs.rmSync(app, { recursive: true, force: true });
  log(`installing examples/expo-app in ${app} (once; later runs reuse it)`);
  const options = { cwd: REPO_ROOT, timeoutMs: SLOW_HANG_GUARD_MS };
  await runOk(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
    options,
  );
  const listed = await runOk('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    ...options,
    cwd: EXAMPLE,
  });
  for (const file of listed.stdout.split('\0').filter((f) => f && fs.existsSync(path.join(EXAMPLE, f)))) {
    fs.mkdirSync(path.dirname(path.join(app, file)), { recursive: true });
    fs.copyFileSync(path.join(EXAMPLE, file), path.join(app, file));
  }
  const registry = await startLocalRegistry();
  try {
    registry.publishAll();
    fs.writeFileSync(path.join(app, '.npmrc'), registry.scopeNpmrc);
    await runOk('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: app,
      env: cleanEnv(),
      timeoutMs: SLOW_HANG_GUARD_MS,
    });
  } finally {
    await registry.stop();
  }
  return app;
}

function bundlesIn(dir: string): Record<Platform, Buffer> {
  const metadata = JSON.parse(fs.readFileSync(path.join(dir, 'metadata.json'), 'utf8')) as {
    fileMetadata: Record<string, { bundle: string }>;
  };
  const of = (platform: Platform) => fs.readFileSync(path.join(dir, metadata.fileMetadata[platform]!.bundle));
  return { ios: of('ios'), android: of('android') };
}

async function exportVariant(app: string, variant: Variant, original: string): Promise<Record<Platform, Buffer>> {
  const source = appSource(variant, original);
  const out = path.join(CACHE, 'exports', variant);
  const stampFile = path.join(out, 'bench-source.sha256');
  const stamp = sha256(`${source}\n${fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8')}\n${app}`);
  if (
    process.env.BENCH_PATCH_REEXPORT !== '1' &&
    fs.existsSync(stampFile) &&
    fs.readFileSync(stampFile, 'utf8') === stamp
  ) {
    log(`${variant}: the export in ${out} is reused`);
    return bundlesIn(out);
  }
  const appFile = path.join(app, 'App.tsx');
  const own = fs.readFileSync(appFile);
  const started = performance.now();
  try {
    fs.writeFileSync(appFile, source);
    fs.rmSync(out, { recursive: true, force: true });
    await runOk(
      'npx',
      ['--no', '--', 'expo', 'export', '--platform', 'ios', '--platform', 'android', '--output-dir', out],
      {
        cwd: app,
        env: cleanEnv({ APP_ENV: 'production', CI: 'true', EXPO_NO_TELEMETRY: '1' }),
        timeoutMs: SLOW_HANG_GUARD_MS,
      },
    );
  } finally {
    fs.writeFileSync(appFile, own);
  }
  fs.writeFileSync(stampFile, stamp);
  log(`${variant}: exported in ${((performance.now() - started) / 1000).toFixed(0)} s to ${out}`);
  return bundlesIn(out);
}

/** JavaScript text as a bundle compresses: the stand-in when no real export can be made. */
function syntheticBundles(): Bundles {
  const base = javascriptBundle(3 * MIB).bytes.toString();
  const lines = base.split('\n');
  const oneLine = [...lines];
  oneLine[Math.floor(lines.length / 2)] = `${oneLine[Math.floor(lines.length / 2)]} // changed`;
  const extra = javascriptBundle(6 * 1024).bytes.toString();
  const larger = [...lines.slice(0, lines.length / 3), extra, ...lines.slice(lines.length / 3)];
  const both = (text: string) => ({ ios: Buffer.from(text), android: Buffer.from(text) });
  return { base: both(base), 'one-line': both(oneLine.join('\n')), larger: both(larger.join('\n')) };
}

async function realBundles(): Promise<{ bundles: Bundles; source: string } | undefined> {
  let app = findApp();
  if (!app) {
    try {
      app = await installApp();
    } catch (error) {
      log(`could not install examples/expo-app: ${error instanceof Error ? error.message.slice(0, 2000) : error}`);
      return undefined;
    }
  }
  log(`example app: ${app}`);
  const original = fs.readFileSync(path.join(EXAMPLE, 'App.tsx'), 'utf8');
  const bundles = {} as Bundles;
  for (const variant of VARIANTS) bundles[variant] = await exportVariant(app, variant, original);
  return { bundles, source: `Hermes bytecode, npx expo export of examples/expo-app (${app})` };
}

// ── (a) and (b).

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** The bytes of `parts` repeated in turn and cut at `size`. */
function padded(parts: Buffer[], size: number): Buffer {
  const chunks: Buffer[] = [];
  for (let length = 0, i = 0; length < size; i++) {
    const part = parts[i % parts.length]!;
    chunks.push(part);
    length += part.length;
  }
  return Buffer.concat(chunks).subarray(0, size);
}

/**
 * `bytes` with the release number written at three places: a few bytes apart, like a small change.
 * bsdiff's time is mostly the sorting of the base's suffixes, whatever the change.
 */
function numbered(bytes: Buffer, n: number): Buffer {
  const copy = Buffer.from(bytes);
  const label = Buffer.from(`#${String(n).padStart(7, '0')}`);
  for (const at of [0.25, 0.5, 0.75]) label.copy(copy, Math.floor(copy.length * at));
  return copy;
}

async function patchSizes(bundles: Bundles, label: string) {
  const rows: Array<Record<string, string | number>> = [];
  for (const change of ['one-line', 'larger'] as const) {
    for (const platform of PLATFORMS) {
      const base = bundles.base[platform];
      const target = bundles[change][platform];
      const { value: patch, ms } = await timed(() => makePatch(base, target));
      if (!(await applyPatch(base, patch)).equals(target))
        failures.push(`${change} ${platform}: the patch did not give its target`);
      const brotli = (await compress(target, 'br')).length;
      rows.push({
        change: `${change}${label}`,
        platform,
        bundle: kib(target.length),
        'brotli full': kib(brotli),
        patch: kib(patch.length),
        'patch / brotli': (patch.length / brotli).toFixed(3),
        'make ms': ms.toFixed(0),
      });
    }
  }
  return rows;
}

async function bigPatchTimes(bundles: Bundles) {
  const base = padded([bundles.base.ios, bundles.base.android], BIG_BYTES);
  const target = padded([bundles['one-line'].ios, bundles['one-line'].android], BIG_BYTES);
  const make: number[] = [];
  const apply: number[] = [];
  let size = 0;
  for (let i = 0; i < REPEATS; i++) {
    const made = await timed(() => makePatch(base, target));
    const applied = await timed(() => applyPatch(base, made.value));
    if (!applied.value.equals(target)) failures.push('5 MiB: the patch did not give its target');
    make.push(made.ms);
    apply.push(applied.ms);
    size = made.value.length;
  }
  return { base, make, apply, size };
}

// ── (c): the manifest path while the server makes patches.

async function listing(publisher: { base: string }): Promise<ReleaseListResponse['releases']> {
  const response = await fetch(`${publisher.base}/api/updates/releases?${new URLSearchParams(PATCH_TRACK)}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  if (!response.ok) throw new Error(`the release listing answered ${response.status}`);
  return ((await response.json()) as ReleaseListResponse).releases;
}

const patchStates = (releases: ReleaseListResponse['releases']) => {
  const all = releases.flatMap((release) => release.patches);
  return {
    pending: all.filter((p) => p.state === 'pending').length,
    made: all.filter((p) => p.state !== 'pending').length,
  };
};

async function untilNonePending(server: { base: string }): Promise<void> {
  const deadline = Date.now() + 10 * 60_000;
  while (patchStates(await listing(server)).pending > 0) {
    if (Date.now() > deadline) throw new Error('the patches did not settle within 10 minutes');
    await sleep(200);
  }
}

/** Waits until the server serves the asset's brotli form: it compresses each upload once, in the background. */
async function untilCompressed(url: string): Promise<void> {
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    const answer = await get(url, { 'accept-encoding': 'br' });
    if (answer.headers['content-encoding'] === 'br') return;
    if (Date.now() > deadline) throw new Error(`${url} was not compressed within 5 minutes`);
    await sleep(250);
  }
}

interface RoundResult {
  without: WrkResult;
  during: WrkResult;
  busyThroughout: boolean;
  madeDuring: number;
}

async function manifestWhileMaking(bundles: Bundles, perPatchMs: number) {
  buildServer();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-bench-patch-'));
  const port = await freePort();
  let server: Server | undefined;
  try {
    writeSigningKey(dataDir);
    server = await startServer('ferry', port, [dataDir, TOKEN]);
    const publisher = new Publisher(server.url, TOKEN);
    const where = { base: server.url };
    const launch = (bytes: Buffer): File => fileOf(bytes, 'application/javascript', '.hbc');

    // The measured track: the app's own launch bundle.
    const measured = [launch(bundles.base.ios)];
    await publisher.publish(MEASURED_RUNTIME, measured, await publisher.upload(MEASURED_RUNTIME, measured), 'measured');

    // Enough patches queued per "while" run to outlast it at the time (b) measured, with a margin.
    const patchesPerRun = Math.ceil((SECONDS * 1000 * 1.5) / perPatchMs) + 1;
    const releasesPerRun = Math.ceil(patchesPerRun / PATCH_BASES);
    const big = padded([bundles.base.ios, bundles.base.android], BIG_BYTES);
    const files = Array.from({ length: PATCH_BASES + ROUNDS * releasesPerRun }, (_, n) => launch(numbered(big, n)));
    log(
      `(c) set-up: ${files.length} releases of 5 MiB on ${PATCH_RUNTIME}, ${releasesPerRun} per "while" run ` +
        `(${releasesPerRun * PATCH_BASES} patches of ~${(perPatchMs / 1000).toFixed(1)} s for a ${SECONDS} s run)`,
    );
    const urls = new Map<string, string>();
    for (const file of files) {
      const uploaded = await publisher.upload(PATCH_RUNTIME, [file]);
      urls.set(file.hash, uploaded.get(file.hash)!);
      await untilCompressed(uploaded.get(file.hash)!);
    }
    let next = 0;
    const publishNext = () => {
      const file = files[next]!;
      next++;
      return publisher.publish(PATCH_RUNTIME, [file], urls, `patch-${next}`);
    };
    // The first releases, and their patches: the patch track has its bases, and the maker has run.
    for (let i = 0; i < PATCH_BASES; i++) await publishNext();
    await untilNonePending(where);

    const wrk = (label: string) =>
      runWrk({
        url: `${server!.url}/api/updates/manifest`,
        script: LUA,
        scriptArgs: ['1.0.', '1', '-', '0'],
        seconds: SECONDS,
        connections: CONNECTIONS,
        threads: 1,
        serverPid: server!.child.pid,
      }).then((result) => {
        if (result.errorCount > 0) failures.push(`${label}: ${JSON.stringify(result.errors)}`);
        log(
          `  ${label.padEnd(34)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(1)} ms  p99 ${result.p99Ms.toFixed(1)} ms  server ${result.serverCores?.toFixed(2) ?? '?'} cores`,
        );
        return result;
      });
    await wrk('warm-up (not counted)');

    const rounds: RoundResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? (['without', 'while'] as const) : (['while', 'without'] as const);
      const result: Partial<RoundResult> = {};
      for (const kind of order) {
        await untilNonePending(where);
        if (kind === 'without') {
          result.without = await wrk(`round ${round}: without patch work`);
          continue;
        }
        const before = patchStates(await listing(where)).made;
        for (let i = 0; i < releasesPerRun; i++) await publishNext();
        result.during = await wrk(`round ${round}: while making patches`);
        const after = patchStates(await listing(where));
        result.busyThroughout = after.pending > 0;
        result.madeDuring = after.made - before;
        log(
          `  round ${round}: ${result.madeDuring} patch(es) made during the run, ${after.pending} still pending after it`,
        );
      }
      rounds.push(result as RoundResult);
    }
    return { rounds, releasesPerRun };
  } finally {
    if (server) await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<number> {
  if (!wrkAvailable()) {
    console.error('bench:patch needs wrk: apt-get install -y wrk');
    return 1;
  }
  const loadBefore = os.loadavg()[0]!;
  const real = await realBundles();
  const bundles = real?.bundles ?? syntheticBundles();
  const label = real ? '' : ' (SYNTHETIC)';
  if (!real) log('no real export: every figure below is of a SYNTHETIC JavaScript bundle, not of Hermes bytecode');
  console.log(
    `bench:patch: ${real?.source ?? 'SYNTHETIC JavaScript bundles (no example app could be installed)'}; ` +
      `wrk 1 thread, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds; load average ${loadBefore.toFixed(2)}`,
  );

  console.log(
    '\n(a) patch bytes against the brotli full bundle (the server’s makePatch; brotli as the server stores it)',
  );
  printTable(await patchSizes(bundles, label));

  const big = await bigPatchTimes(bundles);
  const perPatchMs = median(big.make) + median(big.apply);
  console.log(
    `\n(b) a ${(BIG_BYTES / MIB).toFixed(0)} MiB bundle${label}: the ios and android base bundles (${kib(bundles.base.ios.length)}, ${kib(bundles.base.android.length)}) ` +
      `concatenated in turn and cut at 5 MiB; target the same of the one-line change; ${REPEATS} repeats`,
  );
  printTable([
    {
      bundle: `5 MiB${label}`,
      'makePatch ms (median)': median(big.make).toFixed(0),
      'makePatch range': `${Math.min(...big.make).toFixed(0)}–${Math.max(...big.make).toFixed(0)}`,
      'applyPatch ms (median)': median(big.apply).toFixed(0),
      patch: kib(big.size),
    },
  ]);

  const { rounds, releasesPerRun } = await manifestWhileMaking(bundles, perPatchMs);
  const counted = rounds.filter((round) => round.busyThroughout);
  if (counted.length === 0) failures.push('no "while" run had the maker busy throughout');
  const p99Ratios = counted.map((round) => round.during.p99Ms / round.without.p99Ms);
  const rpsRatios = counted.map((round) => round.during.rps / round.without.rps);
  const range = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}` : '–');
  console.log(
    `\n(c) the manifest of one warm track${label}, without patch work and while the server makes 5 MiB patches ` +
      `(${releasesPerRun} release(s) of 5 MiB published before each "while" run, ${releasesPerRun * PATCH_BASES} patches queued); ` +
      `${counted.length} of ${rounds.length} rounds had the maker busy throughout`,
  );
  printTable([
    ...(['without', 'during'] as const).map((kind) => ({
      run: kind === 'without' ? 'without patch work' : 'while making patches',
      'p99 ms (median)': median(counted.map((round) => round[kind].p99Ms)).toFixed(1),
      'p50 ms (median)': median(counted.map((round) => round[kind].p50Ms)).toFixed(1),
      'req/s (median)': median(counted.map((round) => round[kind].rps)).toFixed(0),
      'server cores': median(counted.map((round) => round[kind].serverCores ?? Number.NaN)).toFixed(2),
      'patches made in the run': kind === 'without' ? '0' : counted.map((round) => round.madeDuring).join(', '),
    })),
  ]);
  console.log(
    `p99 while / without: ${median(p99Ratios).toFixed(2)} (rounds ${range(p99Ratios)}); ` +
      `req/s while / without: ${median(rpsRatios).toFixed(2)} (rounds ${range(rpsRatios)}); load average ${loadBefore.toFixed(2)} → ${os.loadavg()[0]!.toFixed(2)}`,
  );
  console.log('targets: one-line patch ≤ 0.25 × brotli full; manifest p99 while making patches ≤ 1.2 × without');
  if (failures.length > 0) {
    console.error(`errors:\n${failures.join('\n')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
