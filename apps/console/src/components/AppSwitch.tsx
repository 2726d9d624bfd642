import { useId, useState } from 'react';
import { useT } from '../i18n/use-t.js';
import { useSession } from '../session.js';

/**
 * The app in view, in the header. With more than one app to see, a labelled select of them by name
 * (`onSwitch` then re-reads the session there: the role and what it allows are per app); with one,
 * only its name.
 */
export function AppSwitch({ onSwitch }: { onSwitch: (slug: string) => Promise<void> }) {
  const { t } = useT();
  const session = useSession();
  const id = useId();
  const [busy, setBusy] = useState(false);
  if (!session) return null;
  const current = session.apps.find((app) => app.slug === session.app);
  if (session.apps.length <= 1) {
    return (
      <span className="app-switch" data-app={session.app}>
        <span className="visually-hidden">{t('apps.label')}: </span>
        <span className="app-name">{current?.name ?? session.app}</span>
      </span>
    );
  }
  const change = (slug: string) => {
    setBusy(true);
    // On success this header is replaced by the new app's; on failure the select is usable again.
    onSwitch(slug).finally(() => setBusy(false));
  };
  return (
    <span className="app-switch" data-app={session.app}>
      <label htmlFor={id}>{t('apps.label')}</label>
      <select id={id} value={session.app} disabled={busy} onChange={(event) => change(event.target.value)}>
        {session.apps.map((app) => (
          <option key={app.slug} value={app.slug}>
            {app.name}
          </option>
        ))}
      </select>
    </span>
  );
}
