import type { TrackKey } from '@ferry/contracts';

/**
 * A track as the server keeps it: the app's, named by channel, platform and runtime version. Two
 * apps may each have a production/ios/1.0.0 track; nothing of one is ever read for the other, so
 * every store query, lock, cache key and event of a track carries its app.
 */
export interface Track extends TrackKey {
  app: string;
}

/** Just the track of anything that names one (a release, a directive, a request with its app). */
export const trackOf = (named: Track): Track => ({
  app: named.app,
  channel: named.channel,
  platform: named.platform,
  runtimeVersion: named.runtimeVersion,
});
