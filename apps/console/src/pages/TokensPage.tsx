import {
  CreatedOperatorToken,
  mayPerform,
  OPERATOR_ACTIONS,
  OPERATOR_ROLES,
  type OperatorAction,
  type OperatorRole,
  OperatorTokenList,
  type OperatorTokenView,
} from '@ferry/contracts';
import { type FormEvent, useId, useState } from 'react';
import { getJson, send } from '../api.js';
import { ConfirmAction, refusalText } from '../components/ConfirmAction.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { useSession } from '../session.js';
import { useResource } from '../use-resource.js';

/** What each action lets a role do, in the words an admin picks a role by. */
const ACTION_WORDS: Record<OperatorAction, string | null> = {
  read: 'read releases, rollouts and the audit log',
  'rollout.change': 'change, complete and revert rollouts',
  rollback: 'roll back to an earlier release',
  'directive.create': 'roll back to the embedded bundle',
  publish: null,
  gc: 'collect unreferenced assets',
  'tokens.manage': 'manage operator tokens',
  'console.sign-in': null,
};

/** A role's grants, read from the access rule itself (mayPerform), so the words cannot drift from it. */
export const roleGrants = (role: OperatorRole): string =>
  OPERATOR_ACTIONS.filter((action) => mayPerform(role, action))
    .map((action) => ACTION_WORDS[action])
    .filter((words): words is string => words !== null)
    .join(', ');

/** The one time a new token is on screen: copied from here, never shown again. */
function NewToken({ created, onDismiss }: { created: CreatedOperatorToken; onDismiss: () => void }) {
  const fieldId = useId();
  return (
    <section className="new-token" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`}>
        Token for {created.name} ({created.role})
      </h2>
      <p>
        <strong>This is the only time the token is shown.</strong> Copy it now into a password manager or a CI secret:
        Ferry keeps only its hash, so it cannot show it again.
      </p>
      <label htmlFor={fieldId}>Token</label>
      <div className="token-value">
        <input id={fieldId} readOnly value={created.token} spellCheck={false} onFocus={(e) => e.target.select()} />
        <CopyButton value={created.token} label={`token for ${created.name}`} />
      </div>
      <button type="button" onClick={onDismiss}>
        I have stored it
      </button>
    </section>
  );
}

function TokenRow({ token, onRevoked }: { token: OperatorTokenView; onRevoked: (message: string) => void }) {
  const session = useSession();
  const own = session?.kind === 'token' && session.name === token.name;
  return (
    <tr data-token={token.name}>
      <td data-label="Name">
        {token.name}
        {own && (
          <>
            {' '}
            <span className="badge">you</span>
          </>
        )}
      </td>
      <td data-label="Role">{token.role}</td>
      <td data-label="Created">
        <div>
          <Time iso={token.createdAt} />
          <div className="sub">by {token.createdBy}</div>
        </div>
      </td>
      <td data-label="Last used">{token.lastUsedAt ? <Time iso={token.lastUsedAt} /> : 'never'}</td>
      <td data-label="State">
        {token.revokedAt ? (
          <span className="badge state-reverted">
            revoked <Time iso={token.revokedAt} />
          </span>
        ) : (
          <span className="badge ok">active</span>
        )}
      </td>
      <td data-label="Actions">
        {!token.revokedAt && (
          <ConfirmAction
            label={`Revoke ${token.name}`}
            title="Revoke an operator token"
            confirmLabel="Revoke token"
            danger
            action={() => send(`/api/operator-tokens/${token.id}`, 'DELETE')}
            onDone={() => onRevoked(`Token ${token.name} revoked.`)}
          >
            <p>
              Every request with this token is refused from now on, on every instance, and the console sessions it
              opened end. The name stays taken: the audit log identifies people by it.
            </p>
            {own && (
              <p className="warning">
                <strong>This is the token you are signed in with:</strong> revoking it signs you out.
              </p>
            )}
            <dl className="facts">
              <dt>Name</dt>
              <dd>{token.name}</dd>
              <dt>Role</dt>
              <dd>{token.role}</dd>
            </dl>
          </ConfirmAction>
        )}
      </td>
    </tr>
  );
}

/** Operator tokens, for admins: create one with a role (shown once), list them, revoke one. */
export function TokensPage({ onDone }: { onDone: (message: string) => void }) {
  const [version, setVersion] = useState(0);
  const tokens = useResource(() => getJson('/api/operator-tokens', OperatorTokenList), String(version));
  const nameId = useId();
  const roleId = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code?: string }>();
  const [created, setCreated] = useState<CreatedOperatorToken>();
  const reload = () => setVersion((v) => v + 1);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const token = CreatedOperatorToken.parse(await send('/api/operator-tokens', 'POST', { name: name.trim(), role }));
      setCreated(token);
      setName('');
      onDone(`Token ${token.name} created.`);
      reload();
    } catch (reason) {
      setError(refusalText(reason));
    } finally {
      setBusy(false);
    }
  };
  const list = [...(tokens.data?.tokens ?? [])].sort(
    (a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt.localeCompare(a.createdAt),
  );
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">Operator tokens</h1>
      <p className="sub">
        A token signs in to this console, and works as a bearer token for the API and the CLI, with its role. Ferry
        keeps only its hash.
      </p>
      {created ? (
        <NewToken created={created} onDismiss={() => setCreated(undefined)} />
      ) : (
        <form className="create-token" onSubmit={submit} aria-labelledby={`${nameId}-title`}>
          <h2 id={`${nameId}-title`}>New token</h2>
          <div className="fields">
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              value={name}
              required
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${nameId}-help`}
              onChange={(event) => setName(event.target.value)}
            />
            <label htmlFor={roleId}>Role</label>
            <select
              id={roleId}
              value={role}
              aria-describedby={`${roleId}-help`}
              onChange={(event) => setRole(event.target.value as OperatorRole)}
            >
              {OPERATOR_ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <p id={`${nameId}-help`} className="sub">
            The person or machine it is for, e.g. alice or ci-bot. Their actions are audited under this name, and a name
            is never used twice.
          </p>
          <p id={`${roleId}-help`} className="sub">
            A {role} may {roleGrants(role)}.
          </p>
          {error && (
            <p role="alert" className="error">
              {error.message}
              {error.code && <span className="error-code"> ({error.code})</span>}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
            {busy ? 'Creating…' : 'Create token'}
          </button>
        </form>
      )}
      <h2>Tokens</h2>
      {tokens.error && (
        <p role="alert" className="error">
          Could not load the tokens: {tokens.error.message}
        </p>
      )}
      {!tokens.data && !tokens.error && <Loading label="Loading tokens…" />}
      {tokens.data && list.length === 0 && <p>No operator token exists yet.</p>}
      {list.length > 0 && (
        <table className="data tokens">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.map((token) => (
              <TokenRow
                key={token.id}
                token={token}
                onRevoked={(message) => {
                  onDone(message);
                  reload();
                }}
              />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
