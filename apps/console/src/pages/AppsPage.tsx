import { AppListResponse, AppSlug, type AppView, CreateAppResponse, DEFAULT_APP } from '@ferry/contracts';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import { ApiError, getJson, send } from '../api.js';
import { ConfirmAction } from '../components/ConfirmAction.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { Refusal } from '../components/Refusal.js';
import { Time } from '../components/Time.js';
import { CONSOLE_NAMESPACE } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';
import { type RefusalView, refusalLine, refusalOf } from '../refusal.js';
import { useResource } from '../use-resource.js';

/** What is wrong with a slug, in AppSlug's own words (the server's 400 says the same); undefined when it is fine. */
export const slugProblem = (slug: string): string | undefined => {
  const parsed = AppSlug.safeParse(slug);
  return parsed.success ? undefined : (parsed.error.issues[0]?.message ?? 'not an app slug');
};

/** Active apps before archived ones, each group oldest first (the default app, made first, leads). */
export const appsInOrder = (apps: readonly AppView[]): AppView[] =>
  [...apps].sort(
    (a, b) => Number(a.archivedAt !== null) - Number(b.archivedAt !== null) || a.createdAt.localeCompare(b.createdAt),
  );

/** How a team points its builds and CI at a new app (docs/apps.md, "The CLI and your app"). */
export const nextStepsOf = (slug: string) => ({
  init: `ferry init --app ${slug}`,
  config: `updatesConfig(appEnv, { …, app: '${slug}' })`,
});

/** The one time an app's first release token is on screen, with the certificate its builds embed. */
function NewApp({ created, onDismiss }: { created: CreateAppResponse; onDismiss: () => void }) {
  const { t } = useT();
  const id = useId();
  const { slug, name } = created.app;
  return (
    <section className="new-token new-app" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('apps.newApp', { name })}</h2>
      <p>
        <strong>{t('apps.onceTitle')}</strong> {t('apps.once')}
      </p>
      <label htmlFor={`${id}-token`}>{t('apps.releaseToken')}</label>
      <div className="token-value">
        <input
          id={`${id}-token`}
          readOnly
          value={created.releaseToken}
          spellCheck={false}
          onFocus={(event) => event.target.select()}
        />
        <CopyButton value={created.releaseToken} label={t('apps.copyToken', { slug })} />
      </div>
      <div className="certificate-head">
        <h3 id={`${id}-certificate`}>{t('apps.certificate')}</h3>
        <CopyButton value={created.certificate} label={t('apps.copyCertificate', { slug })} />
      </div>
      <pre className="certificate">{created.certificate}</pre>
      <p className="next-steps">
        <Trans
          ns={CONSOLE_NAMESPACE}
          i18nKey="apps.nextSteps"
          values={nextStepsOf(slug)}
          components={[<code key="init" />, <code key="config" />, <code key="env" />]}
        />
      </p>
      <button type="button" onClick={onDismiss}>
        {t('apps.stored')}
      </button>
    </section>
  );
}

function AppRow({ app, onArchived }: { app: AppView; onArchived: () => void }) {
  const { t } = useT();
  return (
    <tr data-app={app.slug}>
      <td data-label={t('apps.name')}>{app.name}</td>
      <td data-label={t('apps.slug')}>
        <code>{app.slug}</code>
        {app.slug === DEFAULT_APP && (
          <>
            {' '}
            <span className="badge">{t('apps.defaultApp')}</span>
          </>
        )}
      </td>
      <td data-label={t('apps.updatesPath')}>
        <code className="wrap">{app.manifestPath}</code>
      </td>
      <td data-label={t('apps.keyId')}>
        <code>{app.keyId}</code>
      </td>
      <td data-label={t('apps.createdAt')}>
        <Time iso={app.createdAt} />
      </td>
      <td data-label={t('apps.state')}>
        {app.archivedAt ? (
          <span className="badge state-reverted">
            {t('apps.archived')} <Time iso={app.archivedAt} />
          </span>
        ) : (
          <span className="badge ok">{t('apps.active')}</span>
        )}
      </td>
      <td data-label={t('apps.actions')}>
        {app.slug !== DEFAULT_APP && app.archivedAt === null && (
          <ConfirmAction
            label={t('apps.archive', { name: app.name })}
            title={t('apps.archiveTitle')}
            confirmLabel={t('apps.archiveConfirm')}
            danger
            action={() => send(`/api/apps/${encodeURIComponent(app.slug)}/archive`, 'POST')}
            onDone={onArchived}
          >
            <p>{t('apps.archiveBody')}</p>
            <dl className="facts">
              <dt>{t('apps.name')}</dt>
              <dd>{app.name}</dd>
              <dt>{t('apps.slug')}</dt>
              <dd>
                <code>{app.slug}</code>
              </dd>
            </dl>
          </ConfirmAction>
        )}
      </td>
    </tr>
  );
}

/**
 * Apps, for an admin of every app (`apps.manage`): list them, create one (its release token and
 * certificate shown once), archive one. The server decides who may: anyone else opening #/apps
 * reads its refusal. `onAppsChanged` reads the session again, so the app switcher lists the apps there are.
 */
export function AppsPage({
  onDone,
  onAppsChanged,
}: {
  onDone: (message: string) => void;
  onAppsChanged: () => Promise<void>;
}) {
  const { t } = useT();
  const [version, setVersion] = useState(0);
  const apps = useResource(() => getJson('/api/apps', AppListResponse), String(version));
  const slugId = useId();
  const nameId = useId();
  const slugField = useRef<HTMLInputElement>(null);
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  // The slug's rule shows from the first try to create, not at the first key; not on leaving the field
  // either, since the text it adds would move the button under a pointer on its way to it.
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<RefusalView>();
  const [created, setCreated] = useState<CreateAppResponse>();
  const reload = () => setVersion((v) => v + 1);
  // The switcher follows: a failed re-read leaves it as it was until the next page load, nothing worse.
  const appsChanged = () => void onAppsChanged().catch(() => undefined);
  const problem = slugProblem(slug);
  const shownProblem = checked ? problem : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (problem) {
      slugField.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = CreateAppResponse.parse(
        await send('/api/apps', 'POST', { slug, ...(name.trim() ? { name: name.trim() } : {}) }),
      );
      setCreated(answer);
      setSlug('');
      setName('');
      setChecked(false);
      onDone(t('apps.created', { name: answer.app.name }));
      reload();
      appsChanged();
    } catch (reason) {
      setError(refusalOf(t, reason));
    } finally {
      setBusy(false);
    }
  };

  const refused = apps.error instanceof ApiError && apps.error.status === 403;
  const list = appsInOrder(apps.data?.apps ?? []);
  return (
    <section aria-labelledby="apps-title">
      <h1 id="apps-title">{t('apps.title')}</h1>
      <p className="sub">{t('apps.intro')}</p>
      {refused ? (
        // Not an admin of every app: the server's own words say who may.
        <Refusal refusal={refusalOf(t, apps.error)} />
      ) : (
        <>
          {created ? (
            <NewApp created={created} onDismiss={() => setCreated(undefined)} />
          ) : (
            <form className="create-token create-app" onSubmit={submit} aria-labelledby={`${slugId}-title`} noValidate>
              <h2 id={`${slugId}-title`}>{t('apps.newTitle')}</h2>
              <div className="fields">
                <label htmlFor={slugId}>{t('apps.slug')}</label>
                <input
                  id={slugId}
                  ref={slugField}
                  value={slug}
                  required
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  aria-invalid={shownProblem ? true : undefined}
                  aria-describedby={`${slugId}-help${shownProblem ? ` ${slugId}-problem` : ''}`}
                  onChange={(event) => setSlug(event.target.value)}
                />
                <label htmlFor={nameId}>{t('apps.name')}</label>
                <input
                  id={nameId}
                  value={name}
                  autoComplete="off"
                  maxLength={80}
                  aria-describedby={`${nameId}-help`}
                  onChange={(event) => setName(event.target.value)}
                />
              </div>
              {shownProblem && (
                <p id={`${slugId}-problem`} className="error">
                  {shownProblem}
                </p>
              )}
              <p id={`${slugId}-help`} className="sub">
                {t('apps.slugHelp')}
              </p>
              <p id={`${nameId}-help`} className="sub">
                {t('apps.nameHelp')}
              </p>
              {error && <Refusal refusal={error} />}
              <button type="submit" className="primary" disabled={busy || slug === ''}>
                {busy ? t('apps.creating') : t('apps.create')}
              </button>
            </form>
          )}
          <h2>{t('apps.list')}</h2>
          {apps.error && (
            <p role="alert" className="error">
              {t('errors.apps', { reason: refusalLine(t, apps.error) })}
            </p>
          )}
          {!apps.data && !apps.error && <Loading label={t('apps.loading')} />}
          {apps.data && list.length === 0 && <p>{t('apps.none')}</p>}
          {list.length > 0 && (
            <table className="data apps">
              <thead>
                <tr>
                  <th scope="col">{t('apps.name')}</th>
                  <th scope="col">{t('apps.slug')}</th>
                  <th scope="col">{t('apps.updatesPath')}</th>
                  <th scope="col">{t('apps.keyId')}</th>
                  <th scope="col">{t('apps.createdAt')}</th>
                  <th scope="col">{t('apps.state')}</th>
                  <th scope="col">{t('apps.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {list.map((app) => (
                  <AppRow
                    key={app.slug}
                    app={app}
                    onArchived={() => {
                      onDone(t('apps.archivedNotice', { name: app.name }));
                      reload();
                      appsChanged();
                    }}
                  />
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
