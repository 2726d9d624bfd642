import type { Channel } from './channel.js';
import type { Platform } from './platform.js';

/** The three values that name a track; any object carrying them (a release, a request) names one. */
export interface TrackKey {
  channel: Channel;
  platform: Platform;
  runtimeVersion: string;
}

/** Just the track of anything that names one, e.g. to use it as a cache or lock key. */
export const trackOf = (named: TrackKey): TrackKey => ({
  channel: named.channel,
  platform: named.platform,
  runtimeVersion: named.runtimeVersion,
});

/** How people read a track in messages: channel/platform/runtimeVersion. */
export const trackName = (track: TrackKey): string => `${track.channel}/${track.platform}/${track.runtimeVersion}`;
