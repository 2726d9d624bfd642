import { type FunnelSnapshot, parseSnapshot } from '@ferry/certificate-flow';

/**
 * Where this tab keeps what a reload needs to resume (certificate-flow's FunnelSnapshot: never the
 * back part of the number, never the document's link). sessionStorage: this tab only, gone when it
 * closes. Storage that is blocked only means a reload starts afresh.
 */
export const FUNNEL_SESSION_KEY = 'ferry.certificate.funnel';

export function readFunnelSession(): FunnelSnapshot | null {
  try {
    return parseSnapshot(window.sessionStorage.getItem(FUNNEL_SESSION_KEY));
  } catch {
    return null;
  }
}

export function writeFunnelSession(snapshot: FunnelSnapshot | null): void {
  try {
    if (snapshot) window.sessionStorage.setItem(FUNNEL_SESSION_KEY, JSON.stringify(snapshot));
    else window.sessionStorage.removeItem(FUNNEL_SESSION_KEY);
  } catch {
    // not kept: a reload starts afresh
  }
}
