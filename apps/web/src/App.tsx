import {
  type AlertKind,
  alertOf,
  CertificateApiError,
  createCertificateApi,
  createWebCryptoCipher,
  entryFailureAlert,
  type FunnelDependencies,
  type FunnelEntry,
} from '@ferry/certificate-flow';
import { useCertificateTranslation } from '@ferry/certificate-flow/react-i18next';
import { useEffect, useState } from 'react';
import { AlertDialog } from './components/AlertDialog.js';
import { ServiceHeader } from './components/ServiceHeader.js';
import { Funnel } from './Funnel.js';
import { resolveEntry } from './runtime/entry.js';
import { createUserTokenSource } from './runtime/user-token.js';
import { loadWebConfig } from './runtime/web-config.js';

type Boot =
  | { status: 'loading' }
  | { status: 'ready'; entry: FunnelEntry; deps: FunnelDependencies }
  | { status: 'failed'; alert: AlertKind };

/**
 * Why the funnel could not start, as one of the shared alerts: an API failure by the rule native
 * uses too; anything else here is the page's configuration or its key, so the number cannot be protected.
 */
const bootFailure = (error: unknown): AlertKind =>
  error instanceof CertificateApiError ? entryFailureAlert(error) : 'encryptionUnavailable';

async function boot(): Promise<Boot> {
  const config = await loadWebConfig();
  const api = createCertificateApi({ baseUrl: config.apiBaseUrl, getToken: createUserTokenSource(config.apiBaseUrl) });
  const deps: FunnelDependencies = { api, cipher: createWebCryptoCipher(config.certAesKey) };
  const entry = await resolveEntry(window.location.search, api);
  return { status: 'ready', entry, deps };
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

  useEffect(() => {
    boot().then(setState, (error: unknown) => setState({ status: 'failed', alert: bootFailure(error) }));
  }, []);

  if (state.status === 'ready') return <Funnel entry={state.entry} deps={state.deps} />;
  if (state.status === 'loading') {
    return (
      <main>
        <p role="status">{t('loading')}</p>
      </main>
    );
  }
  const alert = alertOf(state.alert);
  return (
    <main>
      <p>{t(alert.message)}</p>
      <AlertDialog alert={dismissed ? null : alert} onDismiss={() => setDismissed(true)} />
    </main>
  );
}
