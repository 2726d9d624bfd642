import {
  type AlertKind,
  alertOf,
  CertificateApiError,
  createCertificateApi,
  createWebCryptoCipher,
  EncryptionError,
  entryFailureAlert,
  type FunnelDependencies,
  type FunnelEntry,
  type FunnelState,
  resumedState,
} from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { useCallback, useEffect, useState } from 'react';
import { AlertDialog } from './components/AlertDialog.js';
import { ServiceHeader } from './components/ServiceHeader.js';
import { StepHeading } from './components/StepHeading.js';
import { Funnel } from './Funnel.js';
import { resolveEntry } from './runtime/entry.js';
import { readFunnelSession, writeFunnelSession } from './runtime/funnel-session.js';
import { hostCertificationMenu, leaveFunnel } from './runtime/host.js';
import { createUserTokenSource } from './runtime/user-token.js';
import { loadWebConfig } from './runtime/web-config.js';

type Boot =
  | { status: 'loading' }
  | { status: 'ready'; entry: FunnelEntry; deps: FunnelDependencies; resumed: FunnelState | null }
  | { status: 'failed'; alert: AlertKind };

/**
 * Why the funnel could not start, as one of the shared alerts: an API failure by the rule native
 * uses too (no answer at all: the connection); the cipher refusing this device or key: encryption
 * (the number cannot be protected here); a page built without a key: the service, for now.
 */
const bootFailure = (error: unknown): AlertKind => {
  if (error instanceof CertificateApiError) return entryFailureAlert(error);
  if (error instanceof EncryptionError) return 'encryptionUnavailable';
  return 'unavailable';
};

/** The failures trying again may cure; the others need the person (or the host) to go elsewhere. */
const RETRYABLE: ReadonlySet<AlertKind> = new Set(['network', 'unavailable', 'tooManyRequests', 'unexpected']);

async function boot(): Promise<Boot> {
  const config = await loadWebConfig();
  const api = createCertificateApi({ baseUrl: config.apiBaseUrl, getToken: createUserTokenSource(config.apiBaseUrl) });
  const deps: FunnelDependencies = { api, cipher: createWebCryptoCipher(config.certAesKey) };
  const entry: FunnelEntry = {
    ...(await resolveEntry(window.location.search, api)),
    certificationMenu: hostCertificationMenu(),
  };
  // A reload resumes this entry's request where it is safe; another entry's is dropped.
  const resumed = resumedState(entry, readFunnelSession());
  if (!resumed) writeFunnelSession(null);
  return { status: 'ready', entry, deps, resumed };
}

export function App() {
  return (
    <>
      <ServiceHeader />
      <Boot />
    </>
  );
}

/** Loads the page's configuration and entry point, then shows the funnel (or why it cannot start). */
function Boot() {
  const { t } = useCertificateTranslation();
  const [state, setState] = useState<Boot>({ status: 'loading' });
  const [dismissed, setDismissed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is what makes "try again" boot again.
  useEffect(() => {
    let current = true;
    boot().then(
      (ready) => current && setState(ready),
      (error: unknown) => current && setState({ status: 'failed', alert: bootFailure(error) }),
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const retry = useCallback(() => {
    setDismissed(false);
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  }, []);

  if (state.status === 'ready') return <Funnel entry={state.entry} deps={state.deps} resumed={state.resumed} />;
  if (state.status === 'loading') {
    return (
      <main>
        <p role="status">{t('loading')}</p>
      </main>
    );
  }
  const alert = alertOf(state.alert, { certificationMenu: hostCertificationMenu() });
  const fromAssignment = new URLSearchParams(window.location.search).has('assignmentId');
  return (
    <main data-step="entry-failure">
      {/* A dead end says what happened and offers a way on: again, or back where the person came from. */}
      <section aria-labelledby="entry-failure-heading">
        <StepHeading id="entry-failure-heading">{t(alert.title, alert.values)}</StepHeading>
        <p>{t(alert.message, alert.values)}</p>
        <div className="actions">
          {RETRYABLE.has(state.alert) ? (
            <button type="button" className="primary" onClick={retry}>
              {t('entry.retry')}
            </button>
          ) : null}
          <button type="button" onClick={leaveFunnel}>
            {t(fromAssignment ? 'entry.backToList' : 'entry.back')}
          </button>
        </div>
      </section>
      <AlertDialog alert={dismissed ? null : alert} onDismiss={() => setDismissed(true)} />
    </main>
  );
}
