import type { Track } from '@ferry/contracts';
import { useEffect, useState } from 'react';

/**
 * Hash routes: the server serves one document (/console/index.html), so a page reload or a shared
 * link never needs a server-side fallback route.
 */
export type Route =
  | { page: 'tracks' }
  | { page: 'track'; track: Track }
  | { page: 'release'; releaseId: string }
  | { page: 'group'; groupId: string }
  | { page: 'audit' }
  | { page: 'tokens' }
  | { page: 'apps' };

const enc = encodeURIComponent;

export const href = {
  tracks: () => '#/tracks',
  track: (t: Track) => `#/track/${enc(t.channel)}/${enc(t.platform)}/${enc(t.runtimeVersion)}`,
  release: (id: string) => `#/release/${enc(id)}`,
  group: (id: string) => `#/group/${enc(id)}`,
  audit: () => '#/audit',
  tokens: () => '#/tokens',
  apps: () => '#/apps',
};

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (parts[0] === 'track' && parts.length === 4) {
    return {
      page: 'track',
      track: { channel: parts[1], platform: parts[2], runtimeVersion: parts[3] } as Track,
    };
  }
  if (parts[0] === 'release' && parts[1]) return { page: 'release', releaseId: parts[1] };
  if (parts[0] === 'group' && parts[1]) return { page: 'group', groupId: parts[1] };
  if (parts[0] === 'audit') return { page: 'audit' };
  if (parts[0] === 'tokens') return { page: 'tokens' };
  if (parts[0] === 'apps') return { page: 'apps' };
  return { page: 'tracks' };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
