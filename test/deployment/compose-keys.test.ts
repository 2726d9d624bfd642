/**
 * Issue 35, item 6: the compose quick start works for any host user. `ferry keys generate` writes
 * the private key 0600 for whoever ran it; the instances run as the image's `node` (1000). The
 * compose file's one-shot service runs deploy/compose/install-keys.sh as root to copy the keys into
 * a volume owned by 1000. No container runtime here: this runs that script as the container does
 * (`sh`, as root, the host folder as it is), with the key owned by a host user who is not 1000, and
 * reads the result as 1000.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { generateSigningKey } from '../../packages/server/src/signing/development-signing-key.js';
import { REPO_ROOT } from '../../scripts/local-registry.js';

const SCRIPT = path.join(REPO_ROOT, 'deploy/compose/install-keys.sh');
/** A host user who is not the image's node user (1000), as on most machines that are not a single-user laptop. */
const HOST_UID = 4321;
const IMAGE_UID = 1000;
const isRoot = process.getuid?.() === 0;
if (!isRoot && process.env.CI === 'true') throw new Error('the compose keys test runs as root in CI (chown, setuid)');
if (!isRoot) process.stderr.write('[ferry tests] skipping the compose keys test: it needs root (chown, setuid)\n');

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ferry-compose-keys-'));
// Open to traverse, as the folders above a bind mount and a volume are: only the files' own modes count.
fs.chmodSync(work, 0o755);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** What `ferry keys generate --out deploy/compose/keys` leaves, run by HOST_UID. */
function hostKeys(dir: string, subject: string) {
  const pair = generateSigningKey(subject);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'private-key.pem'), pair.privateKeyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(dir, 'certificate.pem'), pair.certificatePem, { mode: 0o644 });
  for (const file of ['', 'private-key.pem', 'certificate.pem']) fs.chownSync(path.join(dir, file), HOST_UID, HOST_UID);
  return pair;
}

/** Reads a file as another user, as the instance's process would. */
const readAs = (uid: number, file: string) => spawnSync('cat', [file], { uid, gid: uid, encoding: 'utf8' });

const installKeys = (from: string, to: string) => spawnSync('sh', [SCRIPT, from, to], { encoding: 'utf8' });

describe('docker-compose.yml runs deploy/compose/install-keys.sh', () => {
  it('as root, from the host folder mounted read-only, into the volume the instances read', () => {
    const compose = parse(fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
      services: Record<string, Record<string, unknown>>;
    };
    const keys = compose.services['ferry-keys']!;
    expect(keys.user).toBe('0:0');
    expect(keys.entrypoint).toEqual(['sh', '/opt/compose/install-keys.sh', '/run/host-keys', '/run/ferry/keys']);
    expect(keys.volumes).toEqual([
      './deploy/compose/keys:/run/host-keys:ro',
      './deploy/compose/install-keys.sh:/opt/compose/install-keys.sh:ro',
      'signing-keys:/run/ferry/keys',
    ]);
    for (const name of ['ferry-1', 'ferry-2']) {
      const instance = compose.services[name]!;
      expect(instance.volumes).toEqual(['signing-keys:/run/ferry/keys:ro']);
      expect(instance.depends_on).toMatchObject({ 'ferry-keys': { condition: 'service_completed_successfully' } });
      // The image's user: the one the script installs for by default.
      expect(instance.user).toBeUndefined();
    }
    expect(fs.readFileSync(path.join(REPO_ROOT, 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
  });
});

describe.skipIf(!isRoot)('deploy/compose/install-keys.sh', () => {
  it('makes a key the host user wrote 0600 readable by the instances (uid 1000) and by no one else', () => {
    const from = path.join(work, 'host-keys');
    const to = path.join(work, 'volume');
    const pair = hostKeys(from, 'Ferry compose keys test');
    // The bug: through a bind mount the instance's user cannot read the host user's key.
    expect(readAs(IMAGE_UID, path.join(from, 'private-key.pem')).status).not.toBe(0);

    const result = installKeys(from, to);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const key = path.join(to, 'private-key.pem');
    const certificate = path.join(to, 'certificate.pem');
    expect(readAs(IMAGE_UID, key)).toMatchObject({ status: 0, stdout: pair.privateKeyPem });
    expect(readAs(IMAGE_UID, certificate)).toMatchObject({ status: 0, stdout: pair.certificatePem });
    expect(fs.statSync(key)).toMatchObject({ uid: IMAGE_UID, gid: IMAGE_UID });
    expect(fs.statSync(key).mode & 0o777).toBe(0o400);
    // Another user of the machine still cannot read the key.
    expect(readAs(HOST_UID + 1, key).status).not.toBe(0);
    // Nothing half-written is left behind.
    expect(fs.readdirSync(to).sort()).toEqual(['certificate.pem', 'private-key.pem']);
  });

  it('replaces the installed keys with regenerated ones on the next start', () => {
    const from = path.join(work, 'host-keys-again');
    const to = path.join(work, 'volume-again');
    hostKeys(from, 'first');
    expect(installKeys(from, to).status).toBe(0);
    fs.rmSync(from, { recursive: true });
    const second = hostKeys(from, 'second');
    expect(installKeys(from, to).status).toBe(0);
    expect(readAs(IMAGE_UID, path.join(to, 'private-key.pem')).stdout).toBe(second.privateKeyPem);
  });

  it('installs for another user when FERRY_KEYS_OWNER says so', () => {
    const from = path.join(work, 'host-keys-owner');
    const to = path.join(work, 'volume-owner');
    hostKeys(from, 'owner');
    const result = spawnSync('sh', [SCRIPT, from, to], {
      encoding: 'utf8',
      env: { ...process.env, FERRY_KEYS_OWNER: '2000:2001' },
    });
    expect(result.status).toBe(0);
    expect(fs.statSync(path.join(to, 'private-key.pem'))).toMatchObject({ uid: 2000, gid: 2001 });
  });

  it('stops the stack with the command to run when the keys were not generated', () => {
    const empty = path.join(work, 'no-keys');
    fs.mkdirSync(empty);
    const result = installKeys(empty, path.join(work, 'volume-none'));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('npx ferry keys generate --out deploy/compose/keys');
  });
});
