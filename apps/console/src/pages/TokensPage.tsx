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
import { ConfirmAction } from '../components/ConfirmAction.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { Refusal } from '../components/Refusal.js';
import { Time } from '../components/Time.js';
import type { Translate } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';
import { refusalLine, refusalOf } from '../refusal.js';
import { useSession } from '../session.js';
import { useResource } from '../use-resource.js';

/** The actions an admin picks a role by; publishing and signing in are not an operator's choice. */
const WORDED_ACTIONS = ['read', 'rollout.change', 'rollback', 'directive.create', 'gc', 'tokens.manage'] as const;

/** A role's grants in words, read from the access rule itself (mayPerform), so they cannot drift from it. */
export const roleGrants = (t: Translate, role: OperatorRole): string =>
  OPERATOR_ACTIONS.filter((action): action is (typeof WORDED_ACTIONS)[number] =>
    (WORDED_ACTIONS as readonly OperatorAction[]).includes(action),
  )
    .filter((action) => mayPerform(role, action))
    .map((action) => t(`tokens.grants.${action}`))
    .join(', ');

/** The app choice meaning every app (server-wide); no slug can be `*`. */
export const EVERY_APP = '*';

/**
 * What a new token may be granted, as [value, label] options: every app (server-wide) only for an
 * admin token, which the server requires too; then each app the operator sees, by name.
 */
export const tokenAppChoices = (
  t: Translate,
  role: OperatorRole,
  apps: readonly { slug: string; name: string }[],
): Array<[string, string]> => [
  ...(role === 'admin' ? [[EVERY_APP, t('tokens.everyApp')] as [string, string]] : []),
  ...apps.map((app): [string, string] => [app.slug, app.name]),
];

/** A choice as the request's `app`: null for every app. */
export const tokenAppOf = (choice: string): string | null => (choice === EVERY_APP ? null : choice);

/** A token's app in the list: the app's name when the operator sees it, else its slug; every app in words. */
export const tokenAppLabel = (
  t: Translate,
  app: string | null,
  apps: readonly { slug: string; name: string }[],
): string => (app === null ? t('tokens.everyApp') : (apps.find((known) => known.slug === app)?.name ?? app));

/** The one time a new token is on screen: copied from here, never shown again. */
function NewToken({ created, onDismiss }: { created: CreatedOperatorToken; onDismiss: () => void }) {
  const { t } = useT();
  const fieldId = useId();
  return (
    <section className="new-token" aria-labelledby={`${fieldId}-title`}>
      <h2 id={`${fieldId}-title`}>{t('tokens.newToken', { name: created.name, role: t(`roles.${created.role}`) })}</h2>
      <p>
        <strong>{t('tokens.onceTitle')}</strong> {t('tokens.once')}
      </p>
      <label htmlFor={fieldId}>{t('tokens.field')}</label>
      <div className="token-value">
        <input id={fieldId} readOnly value={created.token} spellCheck={false} onFocus={(e) => e.target.select()} />
        <CopyButton value={created.token} label={t('tokens.copyWhat', { name: created.name })} />
      </div>
      <button type="button" onClick={onDismiss}>
        {t('tokens.stored')}
      </button>
    </section>
  );
}

function TokenRow({ token, onRevoked }: { token: OperatorTokenView; onRevoked: (message: string) => void }) {
  const { t } = useT();
  const session = useSession();
  const own = session?.kind === 'token' && session.name === token.name;
  const app = tokenAppLabel(t, token.app, session?.apps ?? []);
  return (
    <tr data-token={token.name}>
      <td data-label={t('tokens.name')}>
        {token.name}
        {own && (
          <>
            {' '}
            <span className="badge">{t('tokens.you')}</span>
          </>
        )}
      </td>
      <td data-label={t('tokens.role')}>{t(`roles.${token.role}`)}</td>
      <td data-label={t('tokens.app')} data-app={token.app ?? EVERY_APP}>
        {app}
      </td>
      <td data-label={t('tokens.createdAt')}>
        <div>
          <Time iso={token.createdAt} />
          <div className="sub">{t('tokens.createdBy', { actor: token.createdBy })}</div>
        </div>
      </td>
      <td data-label={t('tokens.lastUsed')}>
        {token.lastUsedAt ? <Time iso={token.lastUsedAt} /> : t('tokens.never')}
      </td>
      <td data-label={t('tokens.state')}>
        {token.revokedAt ? (
          <span className="badge state-reverted">
            {t('tokens.revoked')} <Time iso={token.revokedAt} />
          </span>
        ) : (
          <span className="badge ok">{t('tokens.active')}</span>
        )}
      </td>
      <td data-label={t('tokens.actions')}>
        {!token.revokedAt && (
          <ConfirmAction
            label={t('tokens.revoke', { name: token.name })}
            title={t('tokens.revokeTitle')}
            confirmLabel={t('tokens.revokeConfirm')}
            danger
            action={() => send(`/api/operator-tokens/${token.id}`, 'DELETE')}
            onDone={() => onRevoked(t('tokens.revokedNotice', { name: token.name }))}
          >
            <p>{t('tokens.revokeBody')}</p>
            {own && (
              <p className="warning">
                <strong>{t('tokens.revokeOwnTitle')}</strong> {t('tokens.revokeOwn')}
              </p>
            )}
            <dl className="facts">
              <dt>{t('tokens.name')}</dt>
              <dd>{token.name}</dd>
              <dt>{t('tokens.role')}</dt>
              <dd>{t(`roles.${token.role}`)}</dd>
              <dt>{t('tokens.app')}</dt>
              <dd>{app}</dd>
            </dl>
          </ConfirmAction>
        )}
      </td>
    </tr>
  );
}

/** Operator tokens, for admins: create one with a role in an app or every app (shown once), list them, revoke one. */
export function TokensPage({ onDone }: { onDone: (message: string) => void }) {
  const { t } = useT();
  const session = useSession();
  const apps = session?.apps ?? [];
  const [version, setVersion] = useState(0);
  const tokens = useResource(() => getJson('/api/operator-tokens', OperatorTokenList), String(version));
  const nameId = useId();
  const roleId = useId();
  const appId = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState<OperatorRole>('viewer');
  // The app in view unless chosen otherwise.
  const [app, setApp] = useState<string>(session?.app ?? EVERY_APP);
  const chooseRole = (next: OperatorRole) => {
    setRole(next);
    // Every app is an admin's only: another role falls back to the app in view.
    if (next !== 'admin' && app === EVERY_APP && session) setApp(session.app);
  };
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; code?: string }>();
  const [created, setCreated] = useState<CreatedOperatorToken>();
  const reload = () => setVersion((v) => v + 1);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const token = CreatedOperatorToken.parse(
        await send('/api/operator-tokens', 'POST', { name: name.trim(), role, app: tokenAppOf(app) }),
      );
      setCreated(token);
      setName('');
      onDone(t('tokens.created', { name: token.name }));
      reload();
    } catch (reason) {
      setError(refusalOf(t, reason));
    } finally {
      setBusy(false);
    }
  };
  const list = [...(tokens.data?.tokens ?? [])].sort(
    (a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || b.createdAt.localeCompare(a.createdAt),
  );
  return (
    <section aria-labelledby="tokens-title">
      <h1 id="tokens-title">{t('tokens.title')}</h1>
      <p className="sub">{t('tokens.intro')}</p>
      {created ? (
        <NewToken created={created} onDismiss={() => setCreated(undefined)} />
      ) : (
        <form className="create-token" onSubmit={submit} aria-labelledby={`${nameId}-title`}>
          <h2 id={`${nameId}-title`}>{t('tokens.newTitle')}</h2>
          <div className="fields">
            <label htmlFor={nameId}>{t('tokens.name')}</label>
            <input
              id={nameId}
              value={name}
              required
              autoComplete="off"
              spellCheck={false}
              aria-describedby={`${nameId}-help`}
              onChange={(event) => setName(event.target.value)}
            />
            <label htmlFor={roleId}>{t('tokens.role')}</label>
            <select
              id={roleId}
              value={role}
              aria-describedby={`${roleId}-help`}
              onChange={(event) => chooseRole(event.target.value as OperatorRole)}
            >
              {OPERATOR_ROLES.map((r) => (
                <option key={r} value={r}>
                  {t(`roles.${r}`)}
                </option>
              ))}
            </select>
            <label htmlFor={appId}>{t('tokens.app')}</label>
            <select
              id={appId}
              value={app}
              aria-describedby={`${appId}-help`}
              onChange={(event) => setApp(event.target.value)}
            >
              {tokenAppChoices(t, role, apps).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <p id={`${nameId}-help`} className="sub">
            {t('tokens.nameHelp')}
          </p>
          <p id={`${roleId}-help`} className="sub">
            {t('tokens.roleHelp', { role: t(`roles.${role}`), grants: roleGrants(t, role) })}
          </p>
          <p id={`${appId}-help`} className="sub">
            {t('tokens.appHelp')}
          </p>
          {error && <Refusal refusal={error} />}
          <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
            {busy ? t('tokens.creating') : t('tokens.create')}
          </button>
        </form>
      )}
      <h2>{t('tokens.list')}</h2>
      {tokens.error && (
        <p role="alert" className="error">
          {t('errors.tokens', { reason: refusalLine(t, tokens.error) })}
        </p>
      )}
      {!tokens.data && !tokens.error && <Loading label={t('tokens.loading')} />}
      {tokens.data && list.length === 0 && <p>{t('tokens.none')}</p>}
      {list.length > 0 && (
        <table className="data tokens">
          <thead>
            <tr>
              <th scope="col">{t('tokens.name')}</th>
              <th scope="col">{t('tokens.role')}</th>
              <th scope="col">{t('tokens.app')}</th>
              <th scope="col">{t('tokens.createdAt')}</th>
              <th scope="col">{t('tokens.lastUsed')}</th>
              <th scope="col">{t('tokens.state')}</th>
              <th scope="col">{t('tokens.actions')}</th>
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
