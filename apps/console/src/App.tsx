import { ConsoleSession, mayPerform } from '@ferry/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getJson, SESSION_ENDED, send } from './api.js';
import { LanguageSwitch } from './components/LanguageSwitch.js';
import { Loading } from './components/Loading.js';
import { useT } from './i18n/use-t.js';
import { LiveUpdates, useLive } from './live.js';
import { AuditPage } from './pages/AuditPage.js';
import { GroupPage } from './pages/GroupPage.js';
import { ReleasePage } from './pages/ReleasePage.js';
import { SignInPage } from './pages/SignInPage.js';
import { TokensPage } from './pages/TokensPage.js';
import { TrackPage } from './pages/TrackPage.js';
import { TracksPage } from './pages/TracksPage.js';
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

function Page({ route, onDone }: { route: Route; onDone: (message: string) => void }) {
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
    default:
      return <TracksPage />;
  }
}

function Console({ session, onSignOut }: { session: ConsoleSession; onSignOut: () => void }) {
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
  return (
    <SessionProvider session={session}>
      <LiveUpdates>
        <header className="top">
          <span className="brand">{t('app.brand')}</span>
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
          <Page route={route} onDone={setNotice} />
        </main>
      </LiveUpdates>
    </SessionProvider>
  );
}

/** Signed in (a live session cookie) → the console; otherwise the sign-in page. */
export function App() {
  const { t } = useT();
  const [session, setSession] = useState<ConsoleSession | null>();
  useEffect(() => {
    getJson('/api/console/session', ConsoleSession)
      .then(setSession)
      // 401 (no session) and anything else alike: the sign-in page says what the server answers.
      .catch(() => setSession(null));
  }, []);
  useEffect(() => {
    const ended = () => setSession(null);
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);
  const signOut = useCallback(async () => {
    await send('/api/console/session', 'DELETE').catch(() => undefined);
    setSession(null);
  }, []);
  if (session === undefined) return <Loading label={t('app.loading')} />;
  if (session === null) return <SignInPage onSignedIn={setSession} />;
  return <Console session={session} onSignOut={signOut} />;
}
