import { ConsoleSession } from '@ferry/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Trans } from 'react-i18next';
import { request } from '../api.js';
import { LanguageSwitch } from '../components/LanguageSwitch.js';
import { CONSOLE_NAMESPACE } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';
import { refusalLine } from '../refusal.js';

/** Paste an operator token (ferry-server tokens create); the server answers with an HttpOnly session cookie. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const { t } = useT();
  const tokenId = useId();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      // No app is named: which apps this operator may see is known only once the server knows who it is.
      const response = await request('/api/console/session', {
        method: 'POST',
        body: { token: token.trim() },
        app: null,
      });
      const session = ConsoleSession.parse(await response.json());
      setToken('');
      onSignedIn(session);
    } catch (reason) {
      setError(refusalLine(t, reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin" aria-labelledby="signin-title">
      <LanguageSwitch />
      <h1 id="signin-title">{t('signIn.title')}</h1>
      <form onSubmit={submit}>
        <label htmlFor={tokenId}>{t('signIn.token')}</label>
        <input
          id={tokenId}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          required
          onChange={(event) => setToken(event.target.value)}
          aria-describedby={`${tokenId}-help`}
        />
        <p id={`${tokenId}-help`} className="sub">
          <Trans ns={CONSOLE_NAMESPACE} i18nKey="signIn.help" components={[<code key="command" />]} />
        </p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          {busy ? t('signIn.busy') : t('signIn.submit')}
        </button>
      </form>
    </main>
  );
}
