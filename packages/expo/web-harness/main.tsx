/**
 * The native certificate screens of @ferry/expo, rendered by react-native-web: the same components an
 * app mounts, against the real Ferry server. Query: ?assignmentId=<id> (else the menu entry), ?lang=en.
 * Development only: the token and key come from the server's development routes.
 */
import { createRoot } from 'react-dom/client';
import { Alert } from 'react-native';
import { CertificateFunnel, type FunnelEntryPoint } from '../src/certificates';

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

const query = new URLSearchParams(window.location.search);
const assignmentId = query.get('assignmentId');
const entry: FunnelEntryPoint = assignmentId ? { kind: 'assignment', assignmentId } : { kind: 'menu' };
const language = query.get('lang') === 'en' ? 'en' : 'ko';
document.documentElement.lang = language;

const server = await developmentServer();
createRoot(document.getElementById('root') as HTMLElement).render(
  <CertificateFunnel server={server} entry={entry} language={language} />,
);
