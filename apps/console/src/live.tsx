import { ConsoleEvent, type Track } from '@ferry/contracts';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, request, SESSION_ENDED } from './api.js';
import { sameTrack, trackLabel } from './format.js';
import type { Message } from './i18n/catalogue.js';

export type LiveStatus = 'connecting' | 'live' | 'offline';

interface LiveState {
  status: LiveStatus;
  /** Counts every event: pages that show all tracks reload when it changes. */
  all: number;
  /** Reconnects and resets: every page reads again. */
  resets: number;
  /** Recent track changes, newest first, with the `all` count each changed at. */
  changes: Array<{ track: Track; at: number }>;
  /** What screen readers and the status line announce, put into words in the language shown. */
  announcement: Message | null;
}

const LiveContext = createContext<LiveState>({
  status: 'connecting',
  all: 0,
  resets: 0,
  changes: [],
  announcement: null,
});

/**
 * The event stream of one app. An EventSource cannot send headers, so the app is in the query,
 * where the server reads it as it reads `ferry-app` on every other request.
 */
export const eventsUrl = (app: string): string => `/api/console/events?app=${encodeURIComponent(app)}`;

/**
 * One EventSource for the whole console (it sends the session cookie), on the app in view: a
 * publish, rollout change, directive or halt on this instance or another bumps a counter the pages
 * reload on. The browser reconnects by itself; after a reconnect everything is read again (events
 * may have been missed). Another app: another stream, and nothing of the last app's changes.
 */
export function LiveUpdates({ app, children }: { app: string; children: ReactNode }) {
  const [state, setState] = useState<LiveState>({
    status: 'connecting',
    all: 0,
    resets: 0,
    changes: [],
    announcement: null,
  });
  useEffect(() => {
    setState({ status: 'connecting', all: 0, resets: 0, changes: [], announcement: null });
    const source = new EventSource(eventsUrl(app));
    let opened = false;
    source.onopen = () => {
      // A reconnect: what happened while away is unknown, so every page reads again.
      setState((s) => ({
        ...s,
        status: 'live',
        all: opened ? s.all + 1 : s.all,
        resets: opened ? s.resets + 1 : s.resets,
      }));
      opened = true;
    };
    source.onerror = () => {
      setState((s) => ({ ...s, status: 'offline' }));
      // CLOSED: the server refused the reconnect (401 or 403), so the browser stops retrying. If
      // the session ended (signed out elsewhere, token revoked), the app returns to the sign-in page.
      if (source.readyState === EventSource.CLOSED) {
        request('/api/console/session').catch((reason: unknown) => {
          if (reason instanceof ApiError && reason.status === 401) window.dispatchEvent(new Event(SESSION_ENDED));
        });
      }
    };
    const onTrack = (message: MessageEvent<string>) => {
      const parsed = ConsoleEvent.safeParse(JSON.parse(message.data));
      // The server sends only this app's events; one of another app would name a track not shown.
      if (!parsed.success || parsed.data.type !== 'track' || parsed.data.app !== app) return;
      const { channel, platform, runtimeVersion, origin } = parsed.data;
      const track = { channel, platform, runtimeVersion };
      setState((s) => ({
        ...s,
        all: s.all + 1,
        changes: [{ track, at: s.all + 1 }, ...s.changes].slice(0, 50),
        announcement: {
          key: origin === 'remote' ? 'live.changedRemote' : 'live.changed',
          values: { track: trackLabel(track) },
        },
      }));
    };
    const onReset = () =>
      setState((s) => ({
        ...s,
        all: s.all + 1,
        resets: s.resets + 1,
        announcement: { key: 'live.reconnected' },
      }));
    source.addEventListener('track', onTrack);
    source.addEventListener('reset', onReset);
    return () => source.close();
  }, [app]);
  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}

export const useLive = (): LiveState => useContext(LiveContext);

/** A number that changes whenever `track` (or, without one, any track) changed. */
export function useLiveVersion(track?: Track): string {
  const live = useLive();
  return useMemo(() => {
    if (!track) return String(live.all);
    const last = live.changes.find((change) => sameTrack(change.track, track));
    return `${live.resets}:${last?.at ?? 0}`;
  }, [live, track]);
}
