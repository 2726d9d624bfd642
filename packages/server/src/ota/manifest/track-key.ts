import type { Track } from '../app-track.js';

/** A track as one string: the manifest cache's key, and what a parsed request carries to find it. */
export const trackKey = (track: Track): string =>
  `${track.app}\n${track.channel}\n${track.platform}\n${track.runtimeVersion}`;
