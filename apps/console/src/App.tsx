import { type ConsoleSession, mayPerform } from '@ferry/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SESSION_ENDED, send } from './api.js';
import { appInView, rememberedApp, showApp } from './app-in-view.js';
import { AppSwitch } from './components/AppSwitch.js';
import { LanguageSwitch } from './components/LanguageSwitch.js';
import { Loading } from './components/Loading.js';
import { readSession, sessionAfterSignIn } from './console-session.js';
import { useT } from './i18n/use-t.js';
import { LiveUpdates, useLive } from './live.js';
import { AppsPage } from './pages/AppsPage.js';
import { AuditPage } from './pages/AuditPage.js';
import { GroupPage } from './pages/GroupPage.js';
import { ReleasePage } from './pages/ReleasePage.js';
import { SignInPage } from './pages/SignInPage.js';
import { TokensPage } from './pages/TokensPage.js';
import { TrackPage } from './pages/TrackPage.js';
import { TracksPage } from './pages/TracksPage.js';
import { refusalLine } from './refusal.js';
import { href, type Route, useRoute } from './router.js';
import { SessionProvider, useMay } from './session.js';

function LiveStatusLine({ notice }: { notice: string }) {
  const { t } = useT();
  const live = useLive();
  const announcement = live.announcement ? t(live.announcement.key, live.announcement.values) : '';
  return (
    <div className="status-line">
      <span className={`live-dot ${live.status}`} aria-hidden="true" />
      <span>{t(`live.${live.status}`)}</span>
      {/* Polite: a change made elsewhere is announced without moving focus. */}
      <span role="status" aria-live="polite" className="announcement">
        {notice || announcement}
      </span>
    </div>
  );
}

function Page({
  route,
  onDone,
  onAppsChanged,
}: {
  route: Route;
  onDone: (message: string) => void;
  onAppsChanged: () => Promise<void>;
}) {
  const may = useMay();
  switch (route.page) {
    case 'track':
      return <TrackPage track={route.track} onDone={onDone} />;
    case 'release':
      return <ReleasePage releaseId={route.releaseId} onDone={onDone} />;
    case 'group':
      return <GroupPage groupId={route.groupId} onDone={onDone} />;
    case 'audit':
      return <AuditPage />;
    case 'tokens':
      // Only for those who may manage tokens; anyone else gets the tracks, as for an unknown page.
      return may('tokens.manage') ? <TokensPage onDone={onDone} /> : <TracksPage />;
    case 'apps':
      // Always the page: the server decides, and anyone else reads its refusal there.
      return <AppsPage onDone={onDone} onAppsChanged={onAppsChanged} />;
    default:
      return <TracksPage />;
  }
}

function Console({
  session,
  onSignOut,
  onSwitchApp,
  onAppsChanged,
}: {
  session: ConsoleSession;
  onSignOut: () => void;
  onSwitchApp: (slug: string) => Promise<void>;
  onAppsChanged: () => Promise<void>;
}) {
  const { t } = useT();
  const route = useRoute();
  const [notice, setNotice] = useState('');
  const main = useRef<HTMLElement>(null);
  // A new page: focus its main region so keyboard and screen-reader users start at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the route is what moves focus.
  useEffect(() => {
    main.current?.focus();
    setNotice('');
  }, [route]);
  const current = (page: Route['page']) => (route.page === page ? 'page' : undefined);
  const may = (action: Parameters<typeof mayPerform>[1]) => mayPerform(session.role, action);
  const switchApp = (slug: string) =>
    onSwitchApp(slug).catch((reason: unknown) => {
      const name = session.apps.find((app) => app.slug === slug)?.name ?? slug;
      setNotice(t('apps.switchFailed', { app: name, reason: refusalLine(t, reason) }));
    });
  return (
    <SessionProvider session={session}>
      <LiveUpdates app={session.app}>
        <header className="top">
          <span className="brand">{t('app.brand')}</span>
          <AppSwitch onSwitch={switchApp} />
          <nav aria-label={t('app.navLabel')}>
            <a href={href.tracks()} aria-current={current('tracks') ?? current('track') ?? current('release')}>
              {t('nav.tracks')}
            </a>
            <a href={href.audit()} aria-current={current('audit')}>
              {t('nav.audit')}
            </a>
            {may('tokens.manage') && (
              <a href={href.tokens()} aria-current={current('tokens')}>
                {t('nav.tokens')}
              </a>
            )}
            {/* A server-wide action: the session lists it only for an admin of every app, whatever the role here. */}
            {session.allowedActions.includes('apps.manage') && (
              <a href={href.apps()} aria-current={current('apps')}>
                {t('nav.apps')}
              </a>
            )}
          </nav>
          <span className="who">
            {session.name} <span className="badge">{t(`roles.${session.role}`)}</span>
          </span>
          <LanguageSwitch />
          <button type="button" className="small" onClick={onSignOut}>
            {t('app.signOut')}
          </button>
        </header>
        <LiveStatusLine notice={notice} />
        <main id="main" ref={main} tabIndex={-1}>
          <Page route={route} onDone={setNotice} onAppsChanged={onAppsChanged} />
        </main>
      </LiveUpdates>
    </SessionProvider>
  );
}

/**
 * Signed in (a live session cookie) → the console, in the app remembered from the last visit when
 * the operator may still see it, else in the app the server picks; otherwise the sign-in page.
 */
export function App() {
  const { t } = useT();
  const [session, setSession] = useState<ConsoleSession | null>();
  /** The session decides the app in view: every request from now on names it. */
  const show = useCallback((next: ConsoleSession) => {
    showApp(next.app);
    setSession(next);
  }, []);
  useEffect(() => {
    readSession(rememberedApp())
      .then(show)
      // 401 (no session) and anything else alike: the sign-in page says what the server answers.
      .catch(() => setSession(null));
  }, [show]);
  useEffect(() => {
    const ended = () => setSession(null);
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);
  const signOut = useCallback(async () => {
    await send('/api/console/session', 'DELETE').catch(() => undefined);
    setSession(null);
  }, []);
  const signedIn = useCallback(
    (signed: ConsoleSession) => void sessionAfterSignIn(signed, rememberedApp()).then(show),
    [show],
  );
  /** Another app: its session (role, allowed actions), then its tracks. */
  const switchApp = useCallback(
    async (slug: string) => {
      const next = await readSession(slug);
      // Before the new console mounts, so it opens on the tracks: a track or release of the last
      // app is not the new app's.
      window.location.hash = href.tracks();
      show(next);
    },
    [show],
  );
  /**
   * Apps were made or archived: the session again, in the app in view (the switcher lists the apps
   * there are). An archived app in view is no longer the operator's to see: the server's pick then.
   */
  const appsChanged = useCallback(async () => show(await readSession(appInView())), [show]);
  if (session === undefined) return <Loading label={t('app.loading')} />;
  if (session === null) return <SignInPage onSignedIn={signedIn} />;
  // Keyed by app: every page, the live stream and their state start afresh in another app.
  return (
    <Console
      key={session.app}
      session={session}
      onSignOut={signOut}
      onSwitchApp={switchApp}
      onAppsChanged={appsChanged}
    />
  );
}
