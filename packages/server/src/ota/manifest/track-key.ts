import type { Track } from '@ferry/contracts';

/** A track as one string: the manifest cache's key, and what a parsed request carries to find it. */
export const trackKey = (track: Track): string => `${track.channel}\n${track.platform}\n${track.runtimeVersion}`;
