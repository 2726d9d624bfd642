import { ConsoleSession } from '@ferry/contracts';
import { type FormEvent, useId, useState } from 'react';
import { ApiError, send } from '../api.js';

/** Paste an operator token (ferry-server tokens create); the server answers with an HttpOnly session cookie. */
export function SignInPage({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const tokenId = useId();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = ConsoleSession.parse(await send('/api/console/session', 'POST', { token: token.trim() }));
      setToken('');
      onSignedIn(session);
    } catch (reason) {
      setError(reason instanceof ApiError ? reason.message : String(reason));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin" aria-labelledby="signin-title">
      <h1 id="signin-title">Ferry release console</h1>
      <form onSubmit={submit}>
        <label htmlFor={tokenId}>Operator token</label>
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
          An operator token from <code>ferry-server tokens create</code>. It is exchanged for a session; the console
          never keeps it.
        </p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || token.trim() === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
