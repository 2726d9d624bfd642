import { type ConsoleTrack, PLATFORMS } from '@ferry/contracts';
import { trackLabel } from './format.js';

/**
 * One row of the list: a track, or the tracks whose active releases are one release group (iOS and
 * Android of one publish), shown together so that they are read and acted on as one.
 */
export interface Row {
  key: string;
  groupId: string | null;
  tracks: ConsoleTrack[];
}

/** Tracks whose active releases share a group become one row; the rest stay a row each. */
export function rowsOf(tracks: ConsoleTrack[]): Row[] {
  const rows: Row[] = [];
  const byGroup = new Map<string, Row>();
  for (const track of tracks) {
    const existing = track.activeGroupId === null ? undefined : byGroup.get(track.activeGroupId);
    if (existing) {
      existing.tracks.push(track);
      continue;
    }
    const row: Row = { key: trackLabel(track), groupId: track.activeGroupId, tracks: [track] };
    rows.push(row);
    if (track.activeGroupId !== null) byGroup.set(track.activeGroupId, row);
  }
  // A group's platforms in the order of PLATFORMS, as the group's page lists them.
  for (const row of rows) row.tracks.sort((a, b) => PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform));
  return rows;
}
