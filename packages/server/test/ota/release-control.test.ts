import { randomBytes, randomUUID } from 'node:crypto';
import type { RolloutView } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceOf } from '../../src/ota/reports/device-reports.js';
import { rolloutBucket } from '../../src/ota/rollout/rollout-bucket.js';
import { updateAssetKey } from '../../src/storage/objects/object-key.js';
import { describeEachEngine } from '../support/engines.js';
import {
  checkManifestLikeExpo,
  clientHeaders,
  type ManifestResult,
  type ManifestTrack,
} from '../support/expo-client.js';
import { fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * Release control over HTTP (issue 18): staged rollouts chosen by the device's client id, their
 * changes and revert, roll back to the embedded bundle, the up-to-date answer, and what devices
 * report (adoption, failures, the self-halting rollout). Every answer is checked as expo-updates
 * checks it, signature included.
 */
const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
const launch = () =>
  fileOf(`console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`, 'application/javascript', '.bundle');
let versions = 0;
const freshTrack = () =>
  ({ platform: 'ios', runtimeVersion: `control-${Date.now()}-${versions++}`, channel: 'production' }) as const;

/** Client ids whose bucket for `releaseId` is inside (below) or outside `percent`. */
function clientsFor(releaseId: string, percent: number, inside: boolean, count: number): string[] {
  const found: string[] = [];
  while (found.length < count) {
    const id = randomUUID();
    if (rolloutBucket(id, releaseId) < percent === inside) found.push(id);
  }
  return found;
}

describeEachEngine('release control', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  const check = async (
    track: ManifestTrack,
    extra: Record<string, string> = {},
    ns: 'expo' | 'ota' = 'expo',
  ): Promise<ManifestResult> => {
    const response = await fetch(`${server.url}/api/updates/manifest`, {
      headers: { ...clientHeaders(ns, track), ...extra },
    });
    return checkManifestLikeExpo(
      ns,
      { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) },
      trust,
    );
  };
  const servedId = (result: ManifestResult) => (result.kind === 'update' ? result.manifest.id : result.kind);
  const publish = (track: ReturnType<typeof freshTrack>, payload: Record<string, unknown> = {}) =>
    publishRelease(server, { ...track, launch: launch(), payload }).then(({ id }) => id);
  const rollout = async (
    releaseId: string,
    body?: Record<string, unknown>,
  ): Promise<RolloutView & { status: number }> => {
    const response = await server.authed(`/api/updates/rollouts/${releaseId}`, {
      method: body ? 'POST' : 'GET',
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json()) as { rollout: RolloutView };
    return { ...answer.rollout, status: response.status };
  };

  it('a rollout reaches the devices whose bucket is inside; the others and devices without a client id get the fallback', async () => {
    const track = freshTrack();
    const stable = await publish(track);
    const staged = await publish(track, { rollout: { percent: 10 } });
    const inside = clientsFor(staged, 10, true, 5);
    const outside = clientsFor(staged, 10, false, 5);
    for (const id of inside) expect(servedId(await check(track, { 'eas-client-id': id }))).toBe(staged);
    for (const id of outside) expect(servedId(await check(track, { 'eas-client-id': id }))).toBe(stable);
    expect(servedId(await check(track))).toBe(stable);
    // Stable across checks: the same device gets the same answer again.
    expect(servedId(await check(track, { 'eas-client-id': inside[0]! }))).toBe(staged);
    // The spec's own namespace follows the same rule.
    expect(servedId(await check(track, { 'eas-client-id': inside[1]! }, 'ota'))).toBe(staged);

    // Widening keeps every device that was inside, and takes in some that were not.
    const widened = await rollout(staged, { action: 'percent', percent: 60 });
    expect(widened).toMatchObject({ status: 200, percent: 60, state: 'running' });
    for (const id of inside) expect(servedId(await check(track, { 'eas-client-id': id }))).toBe(staged);
    const nowInside = outside.filter((id) => rolloutBucket(id, staged) < 60);
    for (const id of nowInside) expect(servedId(await check(track, { 'eas-client-id': id }))).toBe(staged);

    // Narrowing is allowed too: a device inside at 60 % but not at 5 % gets the fallback again.
    expect(await rollout(staged, { action: 'percent', percent: 5 })).toMatchObject({ percent: 5, state: 'running' });
    let narrowedOut = randomUUID();
    while (!(rolloutBucket(narrowedOut, staged) >= 5 && rolloutBucket(narrowedOut, staged) < 60))
      narrowedOut = randomUUID();
    expect(servedId(await check(track, { 'eas-client-id': narrowedOut }))).toBe(stable);
    expect(await rollout(staged, { action: 'percent', percent: 60 })).toMatchObject({ percent: 60 });

    // Complete: every device, client id or not.
    expect(await rollout(staged, { action: 'complete' })).toMatchObject({
      status: 200,
      percent: 100,
      state: 'complete',
    });
    expect(servedId(await check(track))).toBe(staged);
    for (const id of outside) expect(servedId(await check(track, { 'eas-client-id': id }))).toBe(staged);
    // A completed rollout cannot change any more.
    const again = await server.authed(`/api/updates/rollouts/${staged}`, {
      method: 'POST',
      body: JSON.stringify({ action: 'percent', percent: 5 }),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'ROLLOUT_ENDED' } });
  });

  it('a device outside a rollout on a track with no earlier release gets 204', async () => {
    const track = freshTrack();
    const staged = await publish(track, { rollout: { percent: 1 } });
    const [outside] = clientsFor(staged, 1, false, 1);
    expect(await check(track, { 'eas-client-id': outside! })).toMatchObject({ kind: 'no-update', status: 204 });
    expect(await check(track)).toMatchObject({ kind: 'no-update', status: 204 });
  });

  it('a newer publish supersedes a running rollout; the guard compares with the newest release, rollout or not', async () => {
    const track = freshTrack();
    const stable = await publish(track, { fingerprint: 'fp-1' });
    const staged = await publish(track, { rollout: { percent: 50 }, fingerprint: 'fp-1' });
    // The baseline is the rollout release: it may already run on devices.
    const baseline = await fetch(
      `${server.url}/api/updates/baseline-fingerprint?channel=production&platform=ios&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`,
    );
    expect(await baseline.json()).toMatchObject({ releaseId: staged });
    const next = await publish(track, { rollout: { percent: 20 }, fingerprint: 'fp-1' });
    expect(await rollout(staged)).toMatchObject({ state: 'superseded', reason: `superseded by release ${next}` });
    // Outside the new rollout: the newest complete release, not the superseded one.
    const [outside] = clientsFor(next, 20, false, 1);
    expect(servedId(await check(track, { 'eas-client-id': outside! }))).toBe(stable);
    const full = await publish(track, { fingerprint: 'fp-1' });
    expect(await rollout(next)).toMatchObject({ state: 'superseded' });
    expect(servedId(await check(track, { 'eas-client-id': outside! }))).toBe(full);
  });

  it('a revert brings every device back, including those running the reverted release', async () => {
    const track = freshTrack();
    const stable = await publish(track);
    const staged = await publish(track, { rollout: { percent: 50 } });
    const [inside] = clientsFor(staged, 50, true, 1);
    expect(servedId(await check(track, { 'eas-client-id': inside! }))).toBe(staged);
    const reverted = await rollout(staged, { action: 'revert', actor: 'alice' });
    expect(reverted).toMatchObject({ status: 200, state: 'reverted' });
    // A new record copies the fallback and is newer than the reverted release, so devices apply it.
    const served = await check(track, { 'eas-client-id': inside!, 'expo-current-update-id': staged });
    expect(served.kind).toBe('update');
    const copy = served.kind === 'update' ? served.manifest : undefined;
    expect(copy!.id).not.toBe(stable);
    const releases = (await (
      await server.authed(
        `/api/updates/releases?channel=production&platform=ios&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`,
      )
    ).json()) as {
      releases: Array<{ id: string; metadata: { rolledBackFrom?: string } }>;
    };
    expect(releases.releases[0]).toMatchObject({ id: copy!.id, metadata: { rolledBackFrom: stable } });
    expect(Date.parse(copy!.createdAt)).toBeGreaterThan(
      Date.parse((await server.releaseStore.findById(staged))!.createdAt),
    );
    const audit = await server.app.database.db
      .selectFrom('audit_events')
      .selectAll()
      .where('release_id', '=', staged)
      .where('type', '=', 'rollout.reverted')
      .executeTakeFirstOrThrow();
    expect(audit.actor).toBe('alice');
  });

  it('a revert with no fallback rolls the track back to the embedded bundle', async () => {
    const track = freshTrack();
    const staged = await publish(track, { rollout: { percent: 50 } });
    await rollout(staged, { action: 'revert' });
    const embedded = randomUUID();
    expect(await check(track, { 'expo-current-update-id': staged, 'expo-embedded-update-id': embedded })).toMatchObject(
      {
        kind: 'roll-back-to-embedded',
      },
    );
  });

  it('rolls a track back to the embedded bundle with a signed directive; a later publish supersedes it', async () => {
    const track = freshTrack();
    const first = await publish(track);
    const embedded = randomUUID();
    const response = await server.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...track, type: 'rollBackToEmbedded', actor: 'bob' }),
    });
    expect(response.status).toBe(201);
    const { directive } = (await response.json()) as { directive: { id: string; createdAt: string } };
    const onUpdate = await check(track, { 'expo-current-update-id': first, 'expo-embedded-update-id': embedded });
    expect(onUpdate).toMatchObject({ kind: 'roll-back-to-embedded', commitTime: directive.createdAt });
    // Newer than the update the device runs, so the client applies it.
    expect(Date.parse(directive.createdAt)).toBeGreaterThan(
      Date.parse((await server.releaseStore.findById(first))!.createdAt),
    );
    // Already on the embedded bundle: nothing to do.
    expect(
      await check(track, { 'expo-current-update-id': embedded, 'expo-embedded-update-id': embedded }),
    ).toMatchObject({
      kind: 'no-update',
      status: 200,
    });
    // The JSON structures cannot carry a directive: 406, as the protocol says.
    const json = await fetch(`${server.url}/api/updates/manifest`, {
      headers: { ...clientHeaders('expo', track), accept: 'application/expo+json' },
    });
    expect(json.status).toBe(406);
    expect(await json.json()).toMatchObject({ error: { code: 'NOT_ACCEPTABLE' } });
    const later = await publish(track);
    expect(
      servedId(await check(track, { 'expo-current-update-id': embedded, 'expo-embedded-update-id': embedded })),
    ).toBe(later);
  });

  it('after a roll back to embedded, the release it replaced can be restored (it is no longer active)', async () => {
    const track = freshTrack();
    const newest = await publish(track);
    const embedded = randomUUID();
    const directive = await server.authed('/api/updates/directives', {
      method: 'POST',
      body: JSON.stringify({ ...track, type: 'rollBackToEmbedded' }),
    });
    expect(directive.status).toBe(201);
    const restored = await server.authed('/api/updates/rollback', {
      method: 'POST',
      body: JSON.stringify({ ...track, to: newest }),
    });
    expect(restored.status).toBe(201);
    const body = (await restored.json()) as { release: { id: string }; restored: { id: string } };
    expect(body.restored.id).toBe(newest);
    // Devices on their embedded bundle get the restored content again, as a new record.
    expect(
      servedId(await check(track, { 'expo-current-update-id': embedded, 'expo-embedded-update-id': embedded })),
    ).toBe(body.release.id);
    // Once it is served, naming it again is refused as before.
    const again = await server.authed('/api/updates/rollback', {
      method: 'POST',
      body: JSON.stringify({ ...track, to: body.release.id }),
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'ALREADY_ACTIVE' } });
  });

  it('an up-to-date expo-updates client gets a signed noUpdateAvailable; the spec client and JSON get 204', async () => {
    const track = freshTrack();
    const id = await publish(track);
    expect(await check({ ...track, currentUpdateId: id })).toMatchObject({ kind: 'no-update', status: 200 });
    expect(await check({ ...track, currentUpdateId: id }, {}, 'ota')).toMatchObject({ kind: 'no-update', status: 204 });
    const json = await fetch(`${server.url}/api/updates/manifest`, {
      headers: { ...clientHeaders('expo', { ...track, currentUpdateId: id }), accept: 'application/json' },
    });
    expect(json.status).toBe(204);
  });

  it('refuses bad rollout input with the common error body and changes nothing', async () => {
    const track = freshTrack();
    const id = await publish(track);
    const bad = [
      [{ action: 'percent', percent: 0 }, 400],
      [{ action: 'percent', percent: 101 }, 400],
      [{ action: 'percent', percent: 2.5 }, 400],
      [{ action: 'explode' }, 400],
      [{ action: 'complete', extra: 1 }, 400],
    ] as const;
    for (const [body, status] of bad) {
      const response = await server.authed(`/api/updates/rollouts/${id}`, {
        method: 'POST',
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect((await server.authed(`/api/updates/rollouts/${id}`)).status).toBe(404);
    expect((await server.authed(`/api/updates/rollouts/${randomUUID()}`)).status).toBe(404);
    expect((await server.authed('/api/updates/rollouts/not-a-uuid')).status).toBe(400);
    expect((await fetch(`${server.url}/api/updates/rollouts/${id}`)).status).toBe(401);
    const publishBad = await server.authed('/api/updates/release', {
      method: 'POST',
      body: JSON.stringify({
        ...track,
        launchAsset: { url: 'https://x.test/a', hash: 'a'.repeat(43) },
        rollout: { percent: 0 },
      }),
    });
    expect(publishBad.status).toBe(400);
    expect(servedId(await check(track))).toBe(id);
  });

  it('a rollback to a release whose assets were collected is refused (422), and changes nothing', async () => {
    const track = freshTrack();
    const old = await publish(track);
    const current = await publish(track);
    const release = (await server.releaseStore.findById(old))!;
    // What `ferry gc --apply` does to a release outside the kept ones.
    await server.app.objectStore.delete(
      updateAssetKey('default', release.channel, release.runtimeVersion, release.launchAsset.hash),
    );
    const response = await server.authed('/api/updates/rollback', {
      method: 'POST',
      body: JSON.stringify({ ...track, to: old }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ error: { code: 'ASSET_MISSING' } });
    expect(servedId(await check(track))).toBe(current);
  });

  describe('device reports', () => {
    it('counts adoption and failures per device, once each, and halts a rollout that passes its rule', async () => {
      const track = freshTrack();
      await publish(track);
      const staged = await publish(track, {
        rollout: { percent: 100 - 1, haltRule: { failureRate: 0.2, minDevices: 10 } },
      });
      const devices = clientsFor(staged, 99, true, 10);
      // Eight devices run it; each checks twice (counted once).
      for (const id of devices.slice(0, 8)) {
        for (let i = 0; i < 2; i++) await check(track, { 'eas-client-id': id, 'expo-current-update-id': staged });
      }
      // One failed at launch (it reports the id later), one crashed while running it; both twice.
      const failed = `"${staged}"`;
      for (let i = 0; i < 2; i++) {
        await check(track, { 'eas-client-id': devices[8]!, 'expo-recent-failed-update-ids': failed });
        await check(track, {
          'eas-client-id': devices[9]!,
          'expo-current-update-id': staged,
          'expo-fatal-error': 'TypeError: boom',
        });
      }
      // 2 of 10 = 20 %: the rule fires once the reports are written (about a second).
      let view = await rollout(staged);
      while (view.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        view = await rollout(staged);
      }
      expect(view).toMatchObject({ state: 'halted', health: { received: 10, failed: 2, failureRate: 0.2 } });
      expect(view.reason).toContain('2 of 10 devices');
      // Halted: nobody gets it any more, not even the devices inside.
      expect(servedId(await check(track, { 'eas-client-id': devices[0]! }))).not.toBe(staged);
      const audit = await server.app.database.db
        .selectFrom('audit_events')
        .selectAll()
        .where('release_id', '=', staged)
        .where('type', '=', 'rollout.halted')
        .execute();
      expect(audit).toHaveLength(1);
      // Client ids are kept hashed, never as sent.
      const stored = await server.app.database.db.selectFrom('update_checks').select('device').execute();
      for (const id of devices) expect(stored.some((row) => row.device === id)).toBe(false);
      // A halted rollout can be resumed (widened) or completed by a person.
      expect(await rollout(staged, { action: 'percent', percent: 5 })).toMatchObject({ state: 'running', percent: 5 });
    });

    it('counts adoption: distinct devices that ran a release, in the listing', async () => {
      const track = freshTrack();
      const id = await publish(track);
      const devices = [randomUUID(), randomUUID(), randomUUID()];
      for (const device of devices) {
        // Twice each: one device counts once.
        for (let i = 0; i < 2; i++) await check(track, { 'eas-client-id': device, 'expo-current-update-id': id });
      }
      const listed = async () => {
        const query = `channel=production&platform=ios&runtimeVersion=${encodeURIComponent(track.runtimeVersion)}`;
        const body = (await (await server.authed(`/api/updates/releases?${query}`)).json()) as {
          releases: Array<{ id: string; adoption: { last24h: number; last7d: number } }>;
        };
        return body.releases.find((release) => release.id === id)!.adoption;
      };
      // Reports are written about once a second.
      let adoption = await listed();
      while (adoption.last24h < devices.length) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        adoption = await listed();
      }
      expect(adoption).toEqual({ last24h: 3, last7d: 3 });
    });

    it('ignores reports about updates that are not releases, malformed headers, and devices without a client id', async () => {
      const track = freshTrack();
      const id = await publish(track);
      const [ranOther, failedOther] = [randomUUID(), randomUUID()];
      // Updates that are not releases, run and failed by a device with a client id.
      await check(track, {
        'eas-client-id': randomUUID(),
        'expo-current-update-id': ranOther,
        'expo-recent-failed-update-ids': `"${failedOther}"`,
      });
      // A malformed list that names the release: RFC 8941 rejects the whole header, not just its tail.
      await check(track, { 'eas-client-id': randomUUID(), 'expo-recent-failed-update-ids': `"${id}", ((` });
      // A device without a client id that runs the release and crashed on it.
      await check({ ...track, currentUpdateId: id }, { 'expo-fatal-error': 'TypeError: boom' });
      // The positive control, last: a device that runs the release and crashed on it. Reports are
      // written one batch at a time, in order, failures after checks: once its failure row is in,
      // every report above has been written (or its batch failed, which the log says).
      const control = randomUUID();
      await check(
        { ...track, currentUpdateId: id },
        { 'eas-client-id': control, 'expo-fatal-error': 'TypeError: boom' },
      );

      const db = server.app.database.db;
      const about = [id, ranOther, failedOther];
      const failures = () =>
        db
          .selectFrom('update_failures')
          .select(['update_id', 'device', 'kind'])
          .where('update_id', 'in', about)
          .execute();
      const writeFailed = () => server.logs.text.includes('could not write device reports');
      await expect
        .poll(async () => writeFailed() || (await failures()).some((row) => row.device === deviceOf(control)))
        .toBe(true);

      expect(server.logs.text).not.toContain('could not write device reports');
      expect(await failures()).toEqual([{ update_id: id, device: deviceOf(control), kind: 'fatal' }]);
      const checks = await db
        .selectFrom('update_checks')
        .select(['update_id', 'device'])
        .where('update_id', 'in', about)
        .execute();
      expect(checks).toEqual([{ update_id: id, device: deviceOf(control) }]);
    });
  });
});
