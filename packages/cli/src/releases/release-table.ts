import { type BundlePatch, type PatchState, type ReleaseListItem, trackName } from '@ferry/contracts';

const short = (value: string | null | undefined, length: number) => (value ? value.slice(0, length) : '-');

/** Longer messages are cut here in the table (`--json` has them whole). */
export const MESSAGE_COLUMN_WIDTH = 60;

const messageCell = (message: string | undefined): string => {
  if (!message) return '-';
  const characters = [...message];
  return characters.length <= MESSAGE_COLUMN_WIDTH
    ? message
    : `${characters.slice(0, MESSAGE_COLUMN_WIDTH - 1).join('')}…`;
};

/** `50% running`, `complete`, `halted at 10%`; `-` for a release that reached every device at once. */
export function rolloutCell(rollout: ReleaseListItem['rollout']): string {
  if (!rollout) return '-';
  if (rollout.state === 'complete') return 'complete';
  if (rollout.state === 'running') return `${rollout.percent}% running`;
  return `${rollout.state} at ${rollout.percent}%`;
}

/** A patch's size as a share of the full (brotli) bundle download; `?` until both are measured. */
export function patchShare(patch: BundlePatch): string {
  if (patch.bytes === null || patch.fullBytes === null || patch.fullBytes === 0) return '?';
  const percent = Math.round((patch.bytes / patch.fullBytes) * 100);
  return percent === 0 && patch.bytes > 0 ? '<1%' : `${percent}%`;
}

/** States in the order people read them: what devices get first, then what they do not. */
const PATCH_STATES: PatchState[] = ['ready', 'pending', 'larger', 'failed'];

/**
 * `2 ready (31%·44%), 1 pending`: how many of the release's bundle patches are in each state, with
 * each offered patch's size as a share of the full download; `-` for a release without patches.
 */
export function patchesCell(patches: BundlePatch[]): string {
  if (patches.length === 0) return '-';
  return PATCH_STATES.flatMap((state) => {
    const inState = patches.filter((patch) => patch.state === state);
    if (inState.length === 0) return [];
    const shares = state === 'ready' ? ` (${inState.map(patchShare).join('·')})` : '';
    return [`${inState.length} ${state}${shares}`];
  }).join(', ');
}

/** Columns padded to their widest cell; plain text so it reads the same in a terminal and a CI log. */
export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export interface ReleaseTableOptions {
  /** A TRACK column, for listings that span tracks. */
  showTrack?: boolean;
  /**
   * Mark the first row of each track with `*`: true only when the rows start at the newest
   * release (no --cursor), where that row is the track's active release.
   */
  markNewest?: boolean;
}

/**
 * `ferry releases`: newest first; `*` marks the newest release of each track. GROUP is the release
 * group (both platforms of one publish share it; `ferry rollout --group` acts on them together).
 */
export function releaseTable(releases: ReleaseListItem[], options: ReleaseTableOptions = {}): string {
  const { showTrack = false, markNewest = true } = options;
  const header = [
    '',
    'RELEASE',
    ...(showTrack ? ['TRACK'] : []),
    'GROUP',
    'CREATED',
    'POLICY',
    'ROLLOUT',
    'DEVICES 24H/7D',
    'PATCHES',
    'FINGERPRINT',
    'COMMIT',
    'BRANCH',
    'ACTOR',
    'MESSAGE',
    'NOTE',
  ];
  const seen = new Set<string>();
  const rows = releases.map((release) => {
    const track = trackName(release);
    const newest = markNewest && !seen.has(track);
    seen.add(track);
    return [
      newest ? '*' : '',
      release.id,
      ...(showTrack ? [track] : []),
      release.groupId ?? '-',
      release.createdAt,
      release.updatePolicy === null ? '-' : String(release.updatePolicy),
      rolloutCell(release.rollout),
      `${release.adoption.last24h}/${release.adoption.last7d}`,
      patchesCell(release.patches),
      short(release.fingerprint, 12),
      short(release.metadata.commit, 8),
      release.metadata.branch ?? '-',
      release.metadata.actor ?? '-',
      messageCell(release.metadata.message),
      release.metadata.rolledBackFrom
        ? `rollback of ${release.metadata.rolledBackFrom}`
        : release.metadata.promotedFrom
          ? `promoted from ${release.metadata.promotedFrom}`
          : '',
    ];
  });
  return formatTable(header, rows);
}
