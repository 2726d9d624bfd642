import {
  CONSOLE_HISTORY_LIMIT,
  type ConsoleGroup,
  type ConsoleGroupMember,
  type ConsoleHealth,
  type ConsoleHistoryEntry,
  type ConsoleReleaseDetail,
  type ConsoleRollout,
  type ConsoleTrack,
  type ConsoleTrackDevices,
  type ConsoleTrackState,
  type ManifestNamespace,
  type Release,
  type ReleaseMetadata,
  type RolloutState,
} from '@ferry/contracts';
import { sql } from 'kysely';
import pLimit from 'p-limit';
import type { Database } from '../../storage/database.js';
import { updateAssetKey } from '../../storage/objects/object-key.js';
import type { ObjectStore } from '../../storage/objects/object-store.js';
import { parseJson } from '../../storage/schema.js';
import { type Track, trackOf } from '../app-track.js';
import type { AssetUrls } from '../assets/asset-urls.js';
import type { AppSignerSource } from '../manifest/manifest-service.js';
import { ReleaseNotFound } from '../ota-errors.js';
import type { KyselyPatchStore } from '../patches/kysely-patch-store.js';
import { groupMembers } from '../release-groups.js';
import type { ReleaseStore } from '../release-store.js';
import type { ReportStore } from '../reports/report-store.js';
import { signatureVerifies } from './signature-verifies.js';

const DAY_MS = 86_400_000;
/** The release page's charts cover this many UTC days, today included. */
export const CHART_DAYS = 14;
/** More tracks than a team has; bounds the work of one tracks page. */
export const CONSOLE_MAX_TRACKS = 500;
/** Release ids per grouped query (bound parameters stay well under SQLite's limit). */
const RATE_BATCH = 250;

type Rollout = Pick<ConsoleRollout, 'percent' | 'state' | 'reason'> | null;

const trackKey = (t: { channel: string; platform: string; runtime_version: string }) =>
  `${t.channel}\n${t.platform}\n${t.runtime_version}`;

/** What the track serves now, from its newest entry: a directive, or a release and its rollout. */
export function trackState(head: { kind: 'directive' } | { kind: 'release'; rollout: Rollout }): {
  state: ConsoleTrackState;
  percent: number;
} {
  if (head.kind === 'directive') return { state: 'embedded', percent: 0 };
  const { rollout } = head;
  if (!rollout) return { state: 'complete', percent: 100 };
  switch (rollout.state) {
    case 'running':
      return { state: 'running', percent: rollout.percent };
    case 'halted':
      return { state: 'halted', percent: rollout.percent };
    case 'reverted':
      return { state: 'reverted', percent: rollout.percent };
    default:
      // complete; superseded cannot be a track's newest entry (whatever superseded it is newer).
      return { state: 'complete', percent: 100 };
  }
}

const rolloutOf = (row: {
  rollout_percent: number | null;
  rollout_state: RolloutState | null;
  rollout_reason: string | null;
}): Rollout =>
  row.rollout_state === null
    ? null
    : { percent: Number(row.rollout_percent), state: row.rollout_state, reason: row.rollout_reason };

/** A history row's rollout, with its halt rule (the columns rollouts stores it in). */
const consoleRolloutOf = (row: {
  rollout_percent: number | null;
  rollout_state: RolloutState | null;
  rollout_reason: string | null;
  halt_failure_rate: number | null;
  halt_min_devices: number | null;
}): ConsoleRollout | null => {
  const rollout = rolloutOf(row);
  if (!rollout) return null;
  const haltRule =
    row.halt_failure_rate === null
      ? null
      : { failureRate: Number(row.halt_failure_rate), minDevices: Number(row.halt_min_devices ?? 1) };
  return { ...rollout, haltRule };
};

/** Whole UTC days (epoch day numbers) → ISO dates, oldest first, zero-filled. */
function dailySeries(counts: Map<number, number>, today: number): Array<{ day: string; devices: number }> {
  const series = [];
  for (let day = today - CHART_DAYS + 1; day <= today; day++) {
    series.push({ day: new Date(day * DAY_MS).toISOString().slice(0, 10), devices: counts.get(day) ?? 0 });
  }
  return series;
}

/** How long open consoles share one read of the track list (adoption and failure counts move meanwhile). */
export const TRACKS_MAX_AGE_MS = 2000;

export interface ConsoleReadsDeps {
  database: Database;
  store: ReleaseStore;
  reports: ReportStore;
  objects: ObjectStore;
  /** Where devices download assets now: a release stores no URL. */
  urls: Pick<AssetUrls, 'of'>;
  /** Each app's signer: an app's stored signatures are checked against its certificate. */
  signers: Pick<AppSignerSource, 'load'>;
  /** The bundle patches to launch bundles (ota/patches), shown on the release page. */
  patches: Pick<KyselyPatchStore, 'patchesTo'>;
  /** PATCH_MAX_RATIO: the share of the full download a patch is offered up to. */
  patchMaxRatio: number;
  now?: () => number;
}

/**
 * The console's reads, over the same tables the release-control API reads. Nothing here is on the
 * manifest path: these are a handful of queries per page view.
 */
export class ConsoleReads {
  private readonly now: () => number;
  constructor(private readonly deps: ConsoleReadsDeps) {
    this.now = deps.now ?? Date.now;
  }

  private get db() {
    return this.deps.database.db;
  }

  /**
   * The track list, shared by every console open on this instance: read at most once per
   * TRACKS_MAX_AGE_MS, and again at once after a track changes (`forgetTracks`, fed by the same
   * events as the live stream). It reads every track's newest entry, adoption and health, which on
   * SQLite runs on the event loop and holds up every manifest request meanwhile: the number of open
   * consoles must not multiply that read.
   */
  tracks(app: string): Promise<ConsoleTrack[]> {
    const at = performance.now();
    const cached = this.tracksRead.get(app);
    if (cached && at - cached.at < TRACKS_MAX_AGE_MS) return cached.value;
    const read = { at, value: this.readTracks(app) };
    this.tracksRead.set(app, read);
    read.value.catch(() => {
      if (this.tracksRead.get(app) === read) this.tracksRead.delete(app);
    });
    return read.value;
  }

  /** A track of the app changed (here or on another instance): its next track list is read anew. */
  forgetTracks(app?: string): void {
    if (app === undefined) this.tracksRead.clear();
    else this.tracksRead.delete(app);
  }

  /** Per app; bounded by the apps whose consoles are open (an entry is one small promise). */
  private readonly tracksRead = new Map<string, { at: number; value: Promise<ConsoleTrack[]> }>();

  private async readTracks(app: string): Promise<ConsoleTrack[]> {
    // The newest release and the newest directive of every track (a window per track; both engines).
    const releaseHeads = await sql<{
      id: string;
      channel: string;
      platform: string;
      runtime_version: string;
      metadata: unknown;
      created_at: number | string;
      group_id: string | null;
      rollout_percent: number | null;
      rollout_state: RolloutState | null;
      rollout_reason: string | null;
    }>`
      select h.id, h.channel, h.platform, h.runtime_version, h.metadata, h.created_at, h.group_id,
             ro.percent as rollout_percent, ro.state as rollout_state, ro.reason as rollout_reason
      from (
        select id, channel, platform, runtime_version, metadata, created_at, group_id,
               row_number() over (partition by channel, platform, runtime_version order by created_at desc, seq desc) as n
        from releases where app_id = ${app}
      ) as h
      left join rollouts as ro on ro.release_id = h.id
      where h.n = 1
      order by h.created_at desc
      limit ${CONSOLE_MAX_TRACKS}`.execute(this.db);
    const directiveHeads = await sql<{
      channel: string;
      platform: string;
      runtime_version: string;
      created_at: number | string;
    }>`
      select channel, platform, runtime_version, max(created_at) as created_at
      from directives where app_id = ${app} group by channel, platform, runtime_version`.execute(this.db);
    const guard = await this.db
      .selectFrom('audit_events')
      .select(['type', 'channel', 'platform', 'runtime_version', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('type', 'in', ['guard.blocked', 'guard.bypassed'])
      .where('app_id', '=', app)
      .groupBy(['type', 'channel', 'platform', 'runtime_version'])
      .execute();
    const guardCounts = new Map<string, { blocks: number; bypasses: number }>();
    for (const row of guard) {
      if (row.channel === null || row.platform === null || row.runtime_version === null) continue;
      const key = trackKey({ channel: row.channel, platform: row.platform, runtime_version: row.runtime_version });
      const counts = guardCounts.get(key) ?? { blocks: 0, bypasses: 0 };
      if (row.type === 'guard.blocked') counts.blocks += Number(row.n);
      else counts.bypasses += Number(row.n);
      guardCounts.set(key, counts);
    }
    const directives = new Map(directiveHeads.rows.map((row) => [trackKey(row), Number(row.created_at)]));
    const ids = releaseHeads.rows.map((row) => row.id);
    const adoption = await this.deps.reports.adoption(ids, this.now());
    const health = await this.failureRates(ids);
    const tracks: ConsoleTrack[] = [];
    const seen = new Set<string>();
    for (const row of releaseHeads.rows) {
      const key = trackKey(row);
      seen.add(key);
      const releaseAt = Number(row.created_at);
      const directiveAt = directives.get(key);
      const directiveIsNewer = directiveAt !== undefined && directiveAt > releaseAt;
      const { state, percent } = trackState(
        directiveIsNewer ? { kind: 'directive' } : { kind: 'release', rollout: rolloutOf(row) },
      );
      const counts = guardCounts.get(key);
      tracks.push({
        channel: row.channel as ConsoleTrack['channel'],
        platform: row.platform as ConsoleTrack['platform'],
        runtimeVersion: row.runtime_version,
        activeReleaseId: row.id,
        activeGroupId: row.group_id ?? null,
        message: parseJson<ReleaseMetadata>(row.metadata).message ?? null,
        rolloutPercent: percent,
        state,
        adoption24h: adoption.get(row.id)?.last24h ?? 0,
        failureRate: health.get(row.id) ?? null,
        lastPublishAt: new Date(directiveIsNewer ? (directiveAt as number) : releaseAt).toISOString(),
        guardBlocks: counts?.blocks ?? 0,
        guardBypasses: counts?.bypasses ?? 0,
      });
    }
    // A track that only ever had a directive (rare: a roll back to embedded before any release).
    for (const row of directiveHeads.rows) {
      const key = trackKey(row);
      if (seen.has(key)) continue;
      const counts = guardCounts.get(key);
      tracks.push({
        channel: row.channel as ConsoleTrack['channel'],
        platform: row.platform as ConsoleTrack['platform'],
        runtimeVersion: row.runtime_version,
        activeReleaseId: null,
        activeGroupId: null,
        message: null,
        rolloutPercent: 0,
        state: 'embedded',
        adoption24h: 0,
        failureRate: null,
        lastPublishAt: new Date(Number(row.created_at)).toISOString(),
        guardBlocks: counts?.blocks ?? 0,
        guardBypasses: counts?.bypasses ?? 0,
      });
    }
    return tracks;
  }

  /**
   * Received and failed devices per release, as ReportStore.health counts them for one release, in
   * two grouped queries for a whole page of tracks or a history (not two per release). No entry:
   * nobody received it.
   */
  private async healthOf(ids: string[]): Promise<Map<string, ConsoleHealth>> {
    const health = new Map<string, ConsoleHealth>();
    for (let start = 0; start < ids.length; start += RATE_BATCH) {
      const batch = ids.slice(start, start + RATE_BATCH);
      const received = await sql<{ update_id: string; n: number | string }>`
        select update_id, count(*) as n from (
          select update_id, device from update_checks where update_id in (${sql.join(batch)})
          union
          select update_id, device from update_failures where update_id in (${sql.join(batch)})
        ) as devices group by update_id`.execute(this.db);
      const failed = await this.db
        .selectFrom('update_failures')
        .select(['update_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .where('update_id', 'in', batch)
        .groupBy('update_id')
        .execute();
      const failures = new Map(failed.map((row) => [row.update_id, Number(row.n)]));
      for (const row of received.rows) {
        health.set(row.update_id, { received: Number(row.n), failed: failures.get(row.update_id) ?? 0 });
      }
    }
    return health;
  }

  /** Failed ÷ received devices per release; no entry: nobody received it. */
  private async failureRates(ids: string[]): Promise<Map<string, number>> {
    const rates = new Map<string, number>();
    for (const [id, { received, failed }] of await this.healthOf(ids)) {
      if (received > 0) rates.set(id, failed / received);
    }
    return rates;
  }

  /**
   * Distinct devices seen running any release of the track in the last 24 hours and 7 days (a
   * device that moved from one release to the next counts once): the reach of an action on it.
   */
  async trackDevices(track: Track): Promise<ConsoleTrackDevices> {
    const now = this.now();
    const counted = await sql<{ day: number | string | null; week: number | string | null }>`
      select count(distinct case when c.last_seen >= ${now - DAY_MS} then c.device end) as day,
             count(distinct c.device) as week
      from update_checks as c
      where c.update_id in (
          select id from releases
          where app_id = ${track.app} and channel = ${track.channel} and platform = ${track.platform}
            and runtime_version = ${track.runtimeVersion}
        )
        and c.last_seen >= ${now - 7 * DAY_MS}`.execute(this.db);
    const row = counted.rows[0];
    return { last24h: Number(row?.day ?? 0), last7d: Number(row?.week ?? 0) };
  }

  /** Releases (rollbacks among them) and directives of one track, newest first. */
  async history(track: Track): Promise<ConsoleHistoryEntry[]> {
    const releases = await this.db
      .selectFrom('releases')
      .leftJoin('rollouts', 'rollouts.release_id', 'releases.id')
      .select([
        'id',
        'metadata',
        'update_policy',
        'created_at',
        'seq',
        'group_id',
        'rollouts.percent as rollout_percent',
        'rollouts.state as rollout_state',
        'rollouts.reason as rollout_reason',
        'rollouts.halt_failure_rate',
        'rollouts.halt_min_devices',
      ])
      .where('app_id', '=', track.app)
      .where('channel', '=', track.channel)
      .where('platform', '=', track.platform)
      .where('runtime_version', '=', track.runtimeVersion)
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(CONSOLE_HISTORY_LIMIT)
      .execute();
    const health = await this.healthOf(releases.map((row) => row.id));
    const directives = await this.db
      .selectFrom('directives')
      .select(['id', 'type', 'actor', 'created_at'])
      .where('app_id', '=', track.app)
      .where('channel', '=', track.channel)
      .where('platform', '=', track.platform)
      .where('runtime_version', '=', track.runtimeVersion)
      .orderBy('created_at', 'desc')
      .limit(CONSOLE_HISTORY_LIMIT)
      .execute();
    const entries: Array<ConsoleHistoryEntry & { at: number }> = [
      ...releases.map((row) => ({
        kind: 'release' as const,
        at: Number(row.created_at),
        id: row.id,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        groupId: row.group_id ?? null,
        metadata: parseJson<ReleaseMetadata>(row.metadata),
        updatePolicy: row.update_policy as Release['updatePolicy'],
        rollout: consoleRolloutOf(row),
        health: health.get(row.id) ?? { received: 0, failed: 0 },
      })),
      ...directives.map((row) => ({
        kind: 'directive' as const,
        at: Number(row.created_at),
        id: row.id,
        createdAt: new Date(Number(row.created_at)).toISOString(),
        type: row.type,
        actor: row.actor,
      })),
    ];
    // A new entry is always later than the newest one (nextCreatedAt), so createdAt orders them.
    entries.sort((a, b) => b.at - a.at);
    return entries.slice(0, CONSOLE_HISTORY_LIMIT).map(({ at: _at, ...entry }) => entry);
  }

  async release(app: string, releaseId: string): Promise<ConsoleReleaseDetail> {
    const release = await this.deps.store.findById(app, releaseId);
    if (!release) throw new ReleaseNotFound(releaseId);
    const rollout = await this.deps.store.rollout(releaseId);
    const certificatePem = (await this.deps.signers.load(app).catch(() => undefined))?.certificatePem;
    const signed = await this.db
      .selectFrom('signed_manifests')
      .select(['namespace', 'body', 'signature'])
      .where('release_id', '=', releaseId)
      .orderBy('namespace')
      .execute();
    const limit = pLimit(8);
    const listed = [
      { ...release.launchAsset, launch: true },
      ...release.assets.map((asset) => ({ ...asset, launch: false })),
    ];
    const assets = await Promise.all(
      listed.map((asset) =>
        limit(async () => {
          const key = updateAssetKey(release.app, release.channel, release.runtimeVersion, asset.hash);
          const stored = await this.deps.objects.head(key).catch(() => undefined);
          return { ...asset, url: this.deps.urls.of(release, asset.hash), size: stored?.size ?? null };
        }),
      ),
    );
    const now = this.now();
    const today = Math.floor(now / DAY_MS);
    const since = (today - CHART_DAYS + 1) * DAY_MS;
    const adopted = await sql<{ d: number | string; n: number | string }>`
      select first_seen / ${sql.lit(DAY_MS)} as d, count(*) as n from update_checks
      where update_id = ${releaseId} and first_seen >= ${since} group by 1`.execute(this.db);
    const failed = await sql<{ d: number | string; n: number | string }>`
      select first_seen / ${sql.lit(DAY_MS)} as d, count(*) as n from update_failures
      where update_id = ${releaseId} and first_seen >= ${since} group by 1`.execute(this.db);
    const byDay = (rows: Array<{ d: number | string; n: number | string }>) =>
      new Map(rows.map((row) => [Math.floor(Number(row.d)), Number(row.n)]));
    const health = await this.deps.reports.health(releaseId);
    const adoption = (await this.deps.reports.adoption([releaseId], now)).get(releaseId) ?? { last24h: 0, last7d: 0 };
    const patches = await this.deps.patches.patchesTo([release.launchAsset.hash]);
    return {
      id: release.id,
      channel: release.channel,
      platform: release.platform,
      runtimeVersion: release.runtimeVersion,
      createdAt: release.createdAt,
      groupId: release.groupId,
      metadata: release.metadata,
      updatePolicy: release.updatePolicy,
      rollout: rollout
        ? { percent: rollout.percent, state: rollout.state, reason: rollout.reason, haltRule: rollout.haltRule }
        : null,
      assets,
      manifests: signed.map((row) => ({
        namespace: row.namespace as ManifestNamespace,
        body: row.body,
        signature: row.signature,
        verifies: certificatePem !== undefined && signatureVerifies(row.body, row.signature, certificatePem),
      })),
      adoption,
      health: { received: health.received, failed: health.failed },
      trackDevices: await this.trackDevices(release),
      daily: { adopted: dailySeries(byDay(adopted.rows), today), failed: dailySeries(byDay(failed.rows), today) },
      patches: patches.get(release.launchAsset.hash) ?? [],
      patchMaxRatio: this.deps.patchMaxRatio,
    };
  }

  /**
   * Every platform of a release group: one row of a list opened on demand. The metadata (message,
   * commit, actor) is the group's first release's: one publish made them all.
   */
  async group(app: string, groupId: string): Promise<ConsoleGroup> {
    const members = await groupMembers(this.deps.store, app, groupId);
    const first = members[0]!;
    const ids = members.map((member) => member.id);
    const adoption = await this.deps.reports.adoption(ids, this.now());
    const releases = await Promise.all(
      members.map(async (member): Promise<ConsoleGroupMember> => {
        const rollout = await this.deps.store.rollout(member.id);
        const newest = await this.deps.store.newest(trackOf(member));
        const health = await this.deps.reports.health(member.id);
        return {
          releaseId: member.id,
          channel: member.channel,
          platform: member.platform,
          runtimeVersion: member.runtimeVersion,
          createdAt: member.createdAt,
          rollout: rollout ? { percent: rollout.percent, state: rollout.state, reason: rollout.reason } : null,
          active: newest?.id === member.id,
          adoption: adoption.get(member.id) ?? { last24h: 0, last7d: 0 },
          health: { received: health.received, failed: health.failed },
        };
      }),
    );
    return { groupId, channel: first.channel, createdAt: first.createdAt, metadata: first.metadata, releases };
  }
}
