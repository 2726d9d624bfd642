/**
 * What the host app (a WebView or the portal that embeds this page) may define on
 * `window.ferryHost` before the page loads. Only getUserToken is required.
 */
export interface FerryHost {
  /** The certified user's token; asked for before every request, so the host can refresh it. */
  getUserToken(): string | Promise<string>;
  /**
   * The host's own menu where a member confirms their identity, named in the "identity
   * confirmation needed" alert (e.g. "내 정보 > 본인인증"). Without it the alert names no menu.
   */
  certificationMenu?: string;
  /** Leaves the page for the host's previous screen (its list); without it the page goes back in history. */
  goBack?(): void;
}

declare global {
  interface Window {
    ferryHost?: FerryHost;
  }
}

/** The host's menu name, if it gave a usable one. */
export const hostCertificationMenu = (): string | undefined => {
  const menu = window.ferryHost?.certificationMenu;
  return typeof menu === 'string' && menu.trim() !== '' ? menu.trim() : undefined;
};

/** Back to where the person came from: the host's screen when it says how, else the previous page. */
export const leaveFunnel = (): void => {
  if (typeof window.ferryHost?.goBack === 'function') window.ferryHost.goBack();
  else window.history.back();
};
