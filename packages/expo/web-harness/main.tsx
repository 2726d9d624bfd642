/**
 * The native screens of @ferry/expo, rendered by react-native-web: the same components an app mounts.
 * By default the certificate funnel, against the real Ferry server; query ?assignmentId=<id> (else the
 * menu entry), ?lang=en. ?view=ota-banner or ?view=ota-overlay shows the OTA update UI over a plain
 * app screen instead, in the browser's language unless ?lang= names one.
 * Development only: the token and key come from the server's development routes.
 */
import { createRoot } from 'react-dom/client';
import { Alert, View } from 'react-native';
import { CertificateFunnel, type FunnelEntryPoint } from '../src/certificates';
import { ImmediateOverlay } from '../src/components/immediate-overlay';
import { NotifyBanner } from '../src/components/notify-banner';
import { otaUpdateLanguage } from '../src/i18n/ota-update-language';
import { KeepAllText } from '../src/text/keep-all-text';

// react-native-web's Alert.alert does nothing; show the same title and message as a browser dialog
// (the test reads and accepts it), then press the alert's single button as the person would.
Alert.alert = (title, message, buttons) => {
  window.alert(`${title}\n${message ?? ''}`);
  buttons?.[0]?.onPress?.();
};

async function developmentServer() {
  const config = (await (await fetch('/dev/web-config')).json()) as { certAesKey: string };
  let token: Promise<string> | undefined;
  const getToken = () => {
    token ??= fetch('/dev/sign-in', { method: 'POST' })
      .then((response) => response.json() as Promise<{ token: string }>)
      .then((body) => body.token);
    return token;
  };
  return { url: '', getToken, aesKey: config.certAesKey };
}

/** An app's screen with the OTA update UI drawn over it, as OtaUpdateBanner draws it in a root layout. */
function OtaUpdateScreen({ view, language }: { view: string; language: 'ko' | 'en' | undefined }) {
  return (
    <View style={{ flex: 1, backgroundColor: '#f3f4f6' }}>
      <View style={{ padding: 16, paddingTop: 72, gap: 8 }}>
        <KeepAllText role="heading" aria-level={1} style={{ fontSize: 22, fontWeight: '700', color: '#191919' }}>
          {otaUpdateLanguage(language) === 'ko' ? '내 앱' : 'My app'}
        </KeepAllText>
      </View>
      {view === 'ota-overlay' ? (
        <ImmediateOverlay language={language} />
      ) : (
        <NotifyBanner language={language} onApply={() => undefined} onDismiss={() => undefined} />
      )}
    </View>
  );
}

const query = new URLSearchParams(window.location.search);
const view = query.get('view') ?? 'funnel';
const root = createRoot(document.getElementById('root') as HTMLElement);

if (view.startsWith('ota-')) {
  const requested = query.get('lang');
  const language = requested === 'ko' || requested === 'en' ? requested : undefined;
  document.documentElement.lang = otaUpdateLanguage(language);
  root.render(<OtaUpdateScreen view={view} language={language} />);
} else {
  const assignmentId = query.get('assignmentId');
  const entry: FunnelEntryPoint = assignmentId ? { kind: 'assignment', assignmentId } : { kind: 'menu' };
  const language = query.get('lang') === 'en' ? 'en' : 'ko';
  document.documentElement.lang = language;
  const server = await developmentServer();
  root.render(<CertificateFunnel server={server} entry={entry} language={language} />);
}
