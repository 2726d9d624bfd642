import type {
  Adoption,
  BundlePatch,
  ReleaseListItem,
  ReleaseListQuery,
  ReleaseListResponse,
  ReleaseMetadata,
  RolloutState,
} from '@ferry/contracts';
import { sql } from 'kysely';
import { InvalidInput } from '../errors/domain-error.js';
import type { Database } from '../storage/database.js';
import { parseJson } from '../storage/schema.js';

/** A position in the listing's order: the last release a page showed. */
export interface ListingPosition {
  createdAt: number;
  seq: number;
}

/**
 * The cursor is the (created_at, seq) of the last release of a page, base64url-encoded so clients
 * treat it as opaque. Keyset paging on that total order neither repeats nor skips a release when
 * others are published between two pages: new releases sort before the cursor.
 */
export const encodeCursor = (position: ListingPosition): string =>
  Buffer.from(`${position.createdAt}.${position.seq}`, 'utf8').toString('base64url');

export function decodeCursor(cursor: string): ListingPosition {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) {
    throw new InvalidInput([
      { path: 'querystring.cursor', message: 'cursor must be a nextCursor value from an earlier answer' },
    ]);
  }
  return { createdAt: Number(match[1]), seq: Number(match[2]) };
}

type ListingRow = {
  seq: number;
  id: string;
  channel: string;
  platform: string;
  runtime_version: string;
  update_policy: number | null;
  metadata: unknown;
  created_at: number;
  asset_count: number;
  rollout_percent: number | null;
  rollout_state: RolloutState | null;
  rollout_reason: string | null;
  group_id: string | null;
};

/** One row as the API shows it; adoption is counted apart (device reports). */
export function toListItem(
  row: ListingRow,
  adoption: Adoption = NO_ADOPTION,
  patches: BundlePatch[] = [],
): ReleaseListItem {
  const metadata = parseJson<ReleaseMetadata>(row.metadata);
  return {
    id: row.id,
    channel: row.channel as ReleaseListItem['channel'],
    platform: row.platform as ReleaseListItem['platform'],
    runtimeVersion: row.runtime_version,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    updatePolicy: row.update_policy as ReleaseListItem['updatePolicy'],
    fingerprint: metadata.fingerprint ?? null,
    groupId: row.group_id ?? null,
    metadata,
    assetCount: Number(row.asset_count),
    rollout:
      row.rollout_state === null
        ? null
        : { percent: Number(row.rollout_percent), state: row.rollout_state, reason: row.rollout_reason },
    adoption,
    patches,
  };
}

const NO_ADOPTION: Adoption = { last24h: 0, last7d: 0 };

/**
 * GET /api/updates/releases: releases newest first (created_at, then seq, as a track's newest
 * release is chosen), optionally narrowed to a channel, platform and/or runtimeVersion, a page at a
 * time. A whole track uses the track index; anything else the listing index of migration 016.
 */
export class ReleaseListing {
  constructor(
    private readonly database: Database,
    /** Distinct devices per release over 24 h and 7 days (the device reports); none without it. */
    private readonly adoption?: (releaseIds: string[]) => Promise<Map<string, Adoption>>,
    /** The bundle patches to each launch bundle (ota/patches); none without it. */
    private readonly patches?: (launchHashes: string[]) => Promise<Map<string, BundlePatch[]>>,
  ) {}

  /** The app's releases, newest first, filtered and paged. */
  async list(app: string, query: ReleaseListQuery): Promise<ReleaseListResponse> {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    // Counted in the database: a release may list thousands of assets, and only their number is shown.
    const assetCount =
      this.database.engine === 'postgres'
        ? sql<number>`jsonb_array_length(assets)`
        : sql<number>`json_array_length(assets)`;
    let select = this.database.db
      .selectFrom('releases')
      .leftJoin('rollouts', 'rollouts.release_id', 'releases.id')
      .select([
        'seq',
        'id',
        'channel',
        'platform',
        'runtime_version',
        'update_policy',
        'metadata',
        'created_at',
        'group_id',
        'launch_asset',
        assetCount.as('asset_count'),
        'rollouts.percent as rollout_percent',
        'rollouts.state as rollout_state',
        'rollouts.reason as rollout_reason',
      ]);
    select = select.where('app_id', '=', app);
    if (query.channel) select = select.where('channel', '=', query.channel);
    if (query.platform) select = select.where('platform', '=', query.platform);
    if (query.runtimeVersion) select = select.where('runtime_version', '=', query.runtimeVersion);
    if (query.groupId) select = select.where('group_id', '=', query.groupId);
    if (after) {
      select = select.where((eb) => eb(eb.refTuple('created_at', 'seq'), '<', eb.tuple(after.createdAt, after.seq)));
    }
    // One more than a page tells whether another page follows.
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const adoption = (await this.adoption?.(page.map((row) => row.id))) ?? new Map<string, Adoption>();
    const launchHash = (row: { launch_asset: unknown }) => parseJson<{ hash: string }>(row.launch_asset).hash;
    const patches = (await this.patches?.(page.map(launchHash))) ?? new Map<string, BundlePatch[]>();
    return {
      releases: page.map((row) => toListItem(row, adoption.get(row.id), patches.get(launchHash(row)))),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ createdAt: Number(last.created_at), seq: Number(last.seq) })
          : null,
    };
  }
}
