import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AuditEvent,
  AuditEventPage,
  ConsoleGroup,
  type ConsoleHistoryEntry,
  type ConsoleTrack,
  GroupDirectiveResponse,
  GroupRollbackResponse,
  GroupRolloutResponse,
  PromoteResponse,
  type ReleaseListItem,
  type RolloutView,
} from '@ferry/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachEngine } from '../support/engines.js';
import { openEventStream } from '../support/event-stream-reader.js';
import { downloadAndVerify, fetchManifestLikeExpo } from '../support/expo-client.js';
import { type AssetFile, fileOf, publishRelease } from '../support/publisher.js';
import { startTestServer, TEST_SIGNING, type TestServer } from '../support/test-server.js';

/**
 * Release groups over HTTP: the releases one publish made of both platforms share a group, the
 * listings carry it, and rollout changes, rollbacks, rolls back to embedded and promotions act on
 * every platform of a group in one transaction: all of them, or (one refused) none, with the
 * refusal naming the platform. Every platform is audited, and the live stream hears every track.
 */
const trust = { certificatePem: TEST_SIGNING.certificatePem, keyId: 'main' };
const launch = () =>
  fileOf(`console.log(${JSON.stringify(randomBytes(8).toString('hex'))});`, 'application/javascript', '.bundle');
const image = () => fileOf(randomBytes(64), 'image/png', '.png');
type Channel = 'development' | 'production';
type Platform = 'ios' | 'android';
let counter = 0;

describeEachEngine('release groups', (engine) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(engine);
  });
  afterAll(async () => server?.close());

  /** The two tracks of one app build: each platform has its own build number, so its own runtimeVersion. */
  const build = (channel: Channel = 'production') => {
    const n = ++counter;
    return {
      ios: { channel, platform: 'ios', runtimeVersion: `groups-${n}(1${n})` },
      android: { channel, platform: 'android', runtimeVersion: `groups-${n}(2${n})` },
    } as const;
  };
  type Build = ReturnType<typeof build>;

  /** Both platforms of one export, as `ferry publish` sends them: one group id. */
  const publishGroup = async (
    tracks: Build,
    payload: Record<string, unknown> = {},
    files: { launch?: AssetFile; assets?: AssetFile[] } = {},
  ) => {
    const groupId = randomUUID();
    const ids = {} as Record<Platform, string>;
    for (const platform of ['ios', 'android'] as const) {
      ids[platform] = (
        await publishRelease(server, {
          ...tracks[platform],
          launch: files.launch ?? launch(),
          assets: files.assets,
          payload: { groupId, ...payload },
        })
      ).id;
    }
    return { groupId, ...ids };
  };
  const post = (path: string, body: unknown) => server.authed(path, { method: 'POST', body: JSON.stringify(body) });
  const get = async <T>(path: string): Promise<T> => {
    const response = await server.authed(path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  };
  const rollout = async (releaseId: string) =>
    (await get<{ rollout: RolloutView }>(`/api/updates/rollouts/${releaseId}`)).rollout;
  const newestId = async (track: Build[Platform]) => (await server.releaseStore.newest(track))?.id;
  const auditOf = async (query: string) =>
    AuditEventPage.parse(await get(`/api/audit-events?order=newest&limit=500&${query}`)).events;
  const groupEvents = (events: AuditEvent[], groupId: string) =>
    events.filter((event) => event.details.groupId === groupId);

  it('both platforms of one publish share a group; listings, the console and its group read carry it', async () => {
    const tracks = build();
    const { groupId, ios, android } = await publishGroup(tracks, { rollout: { percent: 10 } });

    const listed = await get<{ releases: ReleaseListItem[] }>(`/api/updates/releases?groupId=${groupId}`);
    expect(listed.releases.map((release) => [release.platform, release.id, release.groupId]).sort()).toEqual([
      ['android', android, groupId],
      ['ios', ios, groupId],
    ]);
    const all = await get<{ releases: ReleaseListItem[] }>('/api/updates/releases?channel=production&limit=100');
    expect(all.releases.find((release) => release.id === ios)?.groupId).toBe(groupId);

    const { tracks: consoleTracks } = await get<{ tracks: ConsoleTrack[] }>('/api/console/tracks');
    for (const platform of ['ios', 'android'] as const) {
      const row = consoleTracks.find((track) => track.runtimeVersion === tracks[platform].runtimeVersion);
      expect(row).toMatchObject({ activeGroupId: groupId, state: 'running', rolloutPercent: 10 });
      const { entries } = await get<{ entries: ConsoleHistoryEntry[] }>(
        `/api/console/history?${new URLSearchParams(tracks[platform])}`,
      );
      expect(entries[0]).toMatchObject({ kind: 'release', groupId });
    }
    expect(await get(`/api/console/releases/${android}`)).toMatchObject({ groupId });

    const group = ConsoleGroup.parse(await get(`/api/console/groups/${groupId}`));
    expect(group).toMatchObject({ groupId, channel: 'production', metadata: { commit: 'c0ffee' } });
    expect(group.releases.map((member) => [member.platform, member.releaseId, member.active, member.rollout])).toEqual([
      ['ios', ios, true, { percent: 10, state: 'running', reason: null }],
      ['android', android, true, { percent: 10, state: 'running', reason: null }],
    ]);
    expect((await server.authed(`/api/console/groups/${randomUUID()}`)).status).toBe(404);

    // A publish without a group id is a group of its own.
    const alone = await publishRelease(server, { ...build().ios, launch: launch() });
    const single = await get<{ releases: ReleaseListItem[] }>(
      `/api/updates/releases?groupId=${(await server.releaseStore.findById(alone.id))!.groupId}`,
    );
    expect(single.releases.map((release) => release.id)).toEqual([alone.id]);
  });

  it('a group holds one release per platform, of one channel', async () => {
    const tracks = build();
    const { groupId } = await publishGroup(tracks);
    const again = await publishRelease(server, {
      ...tracks.ios,
      runtimeVersion: `${tracks.ios.runtimeVersion}-other`,
      launch: launch(),
      payload: { groupId },
    }).catch((error: Error) => error.message);
    expect(again).toMatch(/release answered 409: .*GROUP_CONFLICT.*already has a ios release/);
    const elsewhere = await publishRelease(server, {
      ...build('development').ios,
      launch: launch(),
      payload: { groupId: randomUUID() },
    });
    const mixed = await publishRelease(server, {
      ...build('production').android,
      launch: launch(),
      payload: { groupId: (await server.releaseStore.findById(elsewhere.id))!.groupId! },
    }).catch((error: Error) => error.message);
    expect(mixed).toMatch(/release answered 409: .*GROUP_CONFLICT.*development channel/);
  });

  it('a group rollout changes on every platform at once, audited per platform, heard on every track', async () => {
    const tracks = build();
    await publishGroup(tracks);
    const { groupId, ios, android } = await publishGroup(tracks, { rollout: { percent: 10 } });
    const stream = await openEventStream(`${server.url}/api/console/events`, {
      authorization: `Bearer ${server.token}`,
    });
    try {
      const heard = (platform: Platform) =>
        stream.next((event) => event.data.includes(tracks[platform].runtimeVersion));
      const both = Promise.all([heard('ios'), heard('android')]);
      const widened = await post('/api/updates/rollouts', { groupId, action: 'percent', percent: 50 });
      expect(widened.status).toBe(200);
      const answer = GroupRolloutResponse.parse(await widened.json());
      expect(answer.rollouts.map((view) => [view.platform, view.releaseId, view.percent, view.state])).toEqual([
        ['ios', ios, 50, 'running'],
        ['android', android, 50, 'running'],
      ]);
      await both;
    } finally {
      stream.close();
    }

    // Halt, halt again (it stays so), resume: every platform, each audited once.
    expect((await post('/api/updates/rollouts', { groupId, action: 'halt' })).status).toBe(200);
    expect((await rollout(ios)).state).toBe('halted');
    expect((await rollout(android)).state).toBe('halted');
    expect((await post('/api/updates/rollouts', { groupId, action: 'halt' })).status).toBe(200);
    expect((await post('/api/updates/rollouts', { groupId, action: 'resume' })).status).toBe(200);
    expect(await rollout(android)).toMatchObject({ state: 'running', percent: 50 });

    const events = groupEvents(await auditOf(`type=rollout.changed,rollout.halted,rollout.resumed`), groupId);
    expect(events.map((event) => [event.type, event.platform]).sort()).toEqual(
      [
        ['rollout.changed', 'ios'],
        ['rollout.changed', 'android'],
        ['rollout.halted', 'ios'],
        ['rollout.halted', 'android'],
        ['rollout.resumed', 'ios'],
        ['rollout.resumed', 'android'],
      ].sort(),
    );
    expect(events.find((event) => event.type === 'rollout.halted')?.details).toMatchObject({
      from: { state: 'running' },
      to: { state: 'halted' },
    });
  });

  it('one platform refusing a group rollout change changes nothing, and the answer names it', async () => {
    const tracks = build();
    const { groupId, ios, android } = await publishGroup(tracks, { rollout: { percent: 10 } });
    // Android's rollout completes on its own; iOS still runs at 10 %.
    expect((await post(`/api/updates/rollouts/${android}`, { action: 'complete' })).status).toBe(200);
    const before = (await auditOf(`releaseId=${ios}`)).length;

    const refused = await post('/api/updates/rollouts', { groupId, action: 'percent', percent: 60 });
    expect(refused.status).toBe(409);
    const { error } = await refused.json();
    expect(error).toMatchObject({
      code: 'ROLLOUT_ENDED',
      details: { groupId, platform: 'android', releaseId: android, state: 'complete' },
    });
    expect(error.message).toMatch(/^android: The rollout of release .* is complete/);
    expect(error.message).toContain(`Nothing changed on any platform of release group ${groupId}.`);
    expect(await rollout(ios)).toMatchObject({ percent: 10, state: 'running' });
    expect((await auditOf(`releaseId=${ios}`)).length).toBe(before);

    const unknown = await post('/api/updates/rollouts', { groupId: randomUUID(), action: 'halt' });
    expect(unknown.status).toBe(404);
    expect((await post('/api/updates/rollouts', { groupId: 'nope', action: 'halt' })).status).toBe(400);
  });

  it('reverting a halted group rollout publishes each fallback again, as one new group', async () => {
    const tracks = build();
    const stable = await publishGroup(tracks);
    const { groupId } = await publishGroup(tracks, { rollout: { percent: 20 } });
    expect((await post('/api/updates/rollouts', { groupId, action: 'halt' })).status).toBe(200);
    const reverted = await post('/api/updates/rollouts', { groupId, action: 'revert' });
    expect(reverted.status).toBe(200);
    const answer = GroupRolloutResponse.parse(await reverted.json());
    expect(answer.rollouts.map((view) => view.state)).toEqual(['reverted', 'reverted']);
    const copies = await Promise.all((['ios', 'android'] as const).map((p) => server.releaseStore.newest(tracks[p])));
    expect(copies.map((copy) => copy?.metadata.rolledBackFrom)).toEqual([stable.ios, stable.android]);
    expect(copies[0]!.groupId).toBe(copies[1]!.groupId);
    expect(copies[0]!.groupId).not.toBe(stable.groupId);
  });

  it('a group rollback restores the release before it on every track, or refuses on every track', async () => {
    const tracks = build();
    const first = await publishGroup(tracks);
    const second = await publishGroup(tracks);
    const rolledBack = await post('/api/updates/rollback', { groupId: second.groupId, actor: 'carol' });
    expect(rolledBack.status).toBe(201);
    const answer = GroupRollbackResponse.parse(await rolledBack.json());
    expect(answer.rolledBackGroupId).toBe(second.groupId);
    expect(answer.rollbacks.map((r) => [r.platform, r.restored.id, r.replaced.id, r.release.groupId])).toEqual([
      ['ios', first.ios, second.ios, answer.groupId],
      ['android', first.android, second.android, answer.groupId],
    ]);
    for (const platform of ['ios', 'android'] as const) {
      const served = await fetchManifestLikeExpo(server.url, 'expo', tracks[platform], trust);
      expect(served.kind === 'update' && served.manifest.id).toBe(
        answer.rollbacks.find((r) => r.platform === platform)!.release.id,
      );
    }
    const events = groupEvents(await auditOf('type=release.rolled_back'), answer.groupId);
    expect(events.map((event) => event.platform).sort()).toEqual(['android', 'ios']);
    expect(events[0]!.details).toMatchObject({ rolledBackGroupId: second.groupId });

    // The group is no longer the newest on its tracks: rolling it back again would undo the rollback.
    const again = await post('/api/updates/rollback', { groupId: second.groupId });
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: 'GROUP_SUPERSEDED', details: { platform: 'ios' } });

    // Back to the second group by name, every platform.
    const restored = await post('/api/updates/rollback', { groupId: answer.groupId, toGroupId: second.groupId });
    expect(restored.status).toBe(201);
    const back = GroupRollbackResponse.parse(await restored.json());
    expect(back.rollbacks.map((r) => r.restored.id)).toEqual([second.ios, second.android]);
  });

  it('a group rollback one platform refuses rolls back neither', async () => {
    const tracks = build();
    // iOS has an earlier release, Android's track starts with the group: nothing to go back to.
    await publishRelease(server, { ...tracks.ios, launch: launch() });
    const { groupId, ios, android } = await publishGroup(tracks);
    const refused = await post('/api/updates/rollback', { groupId });
    expect(refused.status).toBe(404);
    const { error } = await refused.json();
    expect(error).toMatchObject({ code: 'NO_EARLIER_RELEASE', details: { platform: 'android', groupId } });
    expect(error.message).toMatch(/^android: /);
    expect(await newestId(tracks.ios)).toBe(ios);
    expect(await newestId(tracks.android)).toBe(android);
    // Track and group fields together are refused, naming the field.
    const both = await post('/api/updates/rollback', { groupId, ...tracks.ios });
    expect(both.status).toBe(400);
    expect((await both.json()).error.details.fields[0].path).toBe('body.channel');
  });

  it('a group rolls back to its embedded bundles on every track', async () => {
    const tracks = build();
    const { groupId } = await publishGroup(tracks);
    const response = await post('/api/updates/directives', { groupId, type: 'rollBackToEmbedded' });
    expect(response.status).toBe(201);
    const answer = GroupDirectiveResponse.parse(await response.json());
    expect(answer.directives.map((directive) => directive.platform)).toEqual(['ios', 'android']);
    for (const platform of ['ios', 'android'] as const) {
      expect((await fetchManifestLikeExpo(server.url, 'expo', tracks[platform], trust)).kind).toBe(
        'roll-back-to-embedded',
      );
    }
    const events = groupEvents(await auditOf('type=directive.created'), groupId);
    expect(events.map((event) => event.platform).sort()).toEqual(['android', 'ios']);
  });

  it('promotes a group to another channel: new releases with the same content, signed, assets served there', async () => {
    const development = build('development');
    const production = {
      ios: { ...development.ios, channel: 'production' },
      android: { ...development.android, channel: 'production' },
    } as const;
    const picture = image();
    const source = await publishGroup(development, { fingerprint: 'fp-1', updatePolicy: 2 }, { assets: [picture] });
    const promoted = await post('/api/updates/promote', {
      groupId: source.groupId,
      toChannel: 'production',
      rollout: { percent: 20 },
    });
    expect(promoted.status).toBe(201);
    const answer = PromoteResponse.parse(await promoted.json());
    expect(answer.sourceGroupId).toBe(source.groupId);
    expect(answer.promotions.map(({ release, source: from }) => [release.platform, release.channel, from.id])).toEqual([
      ['ios', 'production', source.ios],
      ['android', 'production', source.android],
    ]);
    for (const { release, source: from } of answer.promotions) {
      expect(release.id).not.toBe(from.id);
      expect(release).toMatchObject({ groupId: answer.groupId, fingerprint: 'fp-1', updatePolicy: 2 });
      const stored = (await server.releaseStore.findById(release.id))!;
      const original = (await server.releaseStore.findById(from.id))!;
      expect(stored.launchAsset.hash).toBe(original.launchAsset.hash);
      expect(stored.assets.map((asset) => asset.hash)).toEqual(original.assets.map((asset) => asset.hash));
      expect(stored.metadata).toMatchObject({ commit: 'c0ffee', promotedFrom: from.id, fingerprint: 'fp-1' });
      expect(await rollout(release.id)).toMatchObject({ percent: 20, state: 'running' });
    }
    // Outside the 20 %: nothing yet on production (no earlier release). Complete it, and devices get it,
    // signed, with assets served under the production channel.
    expect((await post('/api/updates/rollouts', { groupId: answer.groupId, action: 'complete' })).status).toBe(200);
    const served = await fetchManifestLikeExpo(server.url, 'expo', production.ios, trust);
    expect(served.kind).toBe('update');
    if (served.kind !== 'update') return;
    expect(served.manifest.id).toBe(answer.promotions[0]!.release.id);
    expect(served.manifest.launchAsset.url).toContain('/updates/production/');
    await downloadAndVerify(served.manifest.launchAsset);
    const [asset] = served.manifest.assets;
    expect((await downloadAndVerify(asset!)).body.equals(picture.body)).toBe(true);

    const events = groupEvents(await auditOf('type=release.promoted'), answer.groupId);
    expect(events.map((event) => [event.platform, event.channel]).sort()).toEqual([
      ['android', 'production'],
      ['ios', 'production'],
    ]);
    expect(events.find((event) => event.platform === 'ios')?.details).toMatchObject({
      sourceReleaseId: source.ios,
      sourceChannel: 'development',
      toChannel: 'production',
      sourceGroupId: source.groupId,
      guard: 'no-earlier-release',
    });
  });

  it('a promotion goes through the guard as a publish there: one platform blocked, nothing published', async () => {
    const development = build('development');
    const production = {
      ios: { ...development.ios, channel: 'production' },
      android: { ...development.android, channel: 'production' },
    } as const;
    // Production iOS runs a build whose native side differs from what development now has.
    const baseline = await publishRelease(server, {
      ...production.ios,
      launch: launch(),
      payload: { fingerprint: 'fp-old' },
    });
    const source = await publishGroup(development, { fingerprint: 'fp-new' });
    const refused = await post('/api/updates/promote', { groupId: source.groupId, toChannel: 'production' });
    expect(refused.status).toBe(409);
    const { error } = await refused.json();
    expect(error).toMatchObject({
      code: 'NATIVE_FINGERPRINT_CHANGED',
      details: { platform: 'ios', groupId: source.groupId, baselineFingerprint: 'fp-old', fingerprint: 'fp-new' },
    });
    expect(error.message).toMatch(/^ios: The native fingerprint changed/);
    expect(await newestId(production.ios)).toBe(baseline.id);
    expect(await newestId(production.android)).toBeUndefined();
    // Counted as a publish's block is, on the track it would have changed.
    const { tracks } = await get<{ tracks: ConsoleTrack[] }>('/api/console/tracks');
    expect(
      tracks.find((t) => t.runtimeVersion === production.ios.runtimeVersion && t.channel === 'production'),
    ).toMatchObject({ guardBlocks: 1 });

    // One release named alone is refused exactly as a publish of it would be.
    const alone = await post('/api/updates/promote', { releaseId: source.ios, toChannel: 'production' });
    expect(alone.status).toBe(409);
    const single409 = (await alone.json()).error;
    expect(single409.message).toMatch(/^The native fingerprint changed for runtimeVersion /);
    expect(single409.details).not.toHaveProperty('groupId');

    // One release alone promotes as a group of one; the same channel is refused.
    const single = await post('/api/updates/promote', { releaseId: source.android, toChannel: 'production' });
    expect(single.status).toBe(201);
    const one = PromoteResponse.parse(await single.json());
    expect(one.promotions).toHaveLength(1);
    expect(await newestId(production.android)).toBe(one.promotions[0]!.release.id);
    const same = await post('/api/updates/promote', { releaseId: source.android, toChannel: 'development' });
    expect(same.status).toBe(400);
    expect((await same.json()).error.details.fields[0]).toMatchObject({ path: 'body.toChannel' });
    expect((await post('/api/updates/promote', { toChannel: 'production' })).status).toBe(400);
    expect((await post('/api/updates/promote', { releaseId: randomUUID(), toChannel: 'production' })).status).toBe(404);
  });
});
