import type { FunnelEntryPoint } from '@ferry/expo/certificates';

/**
 * Which screen a link opens. `ferry-example://certificate` is the electronic-certificate menu;
 * `ferry-example://certificate?assignmentId=<uuid>` opens the funnel for that assignment (its
 * certificateVendor is read from the server). Anything else stays on the home screen.
 */
export function certificateEntryOf(url: string | null): FunnelEntryPoint | null {
  if (!url) return null;
  // ferry-example://certificate…, and Expo Go's development form exp://host:port/--/certificate…
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#]*\/--\/|\/?)certificate\/?(\?.*)?$/i.exec(url);
  if (!match) return null;
  const assignmentId = new URLSearchParams(match[1] ?? '').get('assignmentId');
  return assignmentId ? { kind: 'assignment', assignmentId } : { kind: 'menu' };
}
