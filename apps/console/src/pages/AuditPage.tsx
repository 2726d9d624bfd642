import { AuditEvent, CHANNELS, type Channel, PLATFORMS, type Platform } from '@ferry/contracts';
import { type FormEvent, useMemo, useState } from 'react';
import { request } from '../api.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { shortId } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { useLiveVersion } from '../live.js';
import { refusalLine } from '../refusal.js';
import { href } from '../router.js';
import { useResource } from '../use-resource.js';

interface Filters {
  type: string;
  channel: string;
  platform: string;
  runtimeVersion: string;
  actor: string;
  since: string;
  until: string;
}

const DAY_MS = 86_400_000;
const EMPTY: Filters = {
  type: '',
  channel: '',
  platform: '',
  runtimeVersion: '',
  actor: '',
  since: new Date(Date.now() - 7 * DAY_MS).toISOString().slice(0, 10),
  until: '',
};
/** The most events one view reads (the export's own maximum page). */
const LIMIT = 10_000;

async function loadEvents(filters: Filters): Promise<AuditEvent[]> {
  const query = new URLSearchParams({ limit: String(LIMIT) });
  if (filters.since) query.set('since', filters.since);
  if (filters.type) query.set('type', filters.type);
  for (const key of ['channel', 'platform', 'runtimeVersion'] as const) if (filters[key]) query.set(key, filters[key]);
  const response = await request(`/api/audit-events?${query}`);
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => AuditEvent.parse(JSON.parse(line)));
}

const isGuardEvent = (type: string) => type === 'guard.bypassed' || type === 'guard.blocked';

/** The audit log, newest first; filters by type, track, actor and time; guard bypasses stand out. */
export function AuditPage() {
  const { t, count } = useT();
  const live = useLiveVersion();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const serverKey = JSON.stringify({ ...applied, actor: '', until: '' });
  const events = useResource(() => loadEvents(applied), `${serverKey} ${live}`);
  const shown = useMemo(() => {
    const actor = applied.actor.trim().toLowerCase();
    // The export filters by time from `since`; actor and the end of the range are applied here.
    const until = applied.until ? new Date(applied.until).getTime() + DAY_MS : Number.POSITIVE_INFINITY;
    return (events.data ?? [])
      .filter((e) => (actor === '' || e.actor.toLowerCase().includes(actor)) && new Date(e.createdAt).getTime() < until)
      .reverse();
  }, [events.data, applied]);
  const field = (key: keyof Filters) => ({
    id: `audit-${key}`,
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('audit.title')}</h1>
      <form className="filters audit-filters" onSubmit={submit} aria-label={t('audit.filters')}>
        <label htmlFor="audit-type">{t('audit.type')}</label>
        <input {...field('type')} placeholder={t('audit.typePlaceholder')} />
        <label htmlFor="audit-channel">{t('audit.channel')}</label>
        <select {...field('channel')}>
          <option value="">{t('audit.any')}</option>
          {CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {channel}
            </option>
          ))}
        </select>
        <label htmlFor="audit-platform">{t('audit.platform')}</label>
        <select {...field('platform')}>
          <option value="">{t('audit.any')}</option>
          {PLATFORMS.map((platform) => (
            <option key={platform} value={platform}>
              {platform}
            </option>
          ))}
        </select>
        <label htmlFor="audit-runtimeVersion">{t('audit.runtimeVersion')}</label>
        <input {...field('runtimeVersion')} />
        <label htmlFor="audit-actor">{t('audit.actor')}</label>
        <input {...field('actor')} />
        <label htmlFor="audit-since">{t('audit.since')}</label>
        <input type="date" {...field('since')} />
        <label htmlFor="audit-until">{t('audit.until')}</label>
        <input type="date" {...field('until')} />
        <button type="submit" className="primary">
          {t('audit.apply')}
        </button>
      </form>
      {events.error && (
        <p role="alert" className="error">
          {t('errors.audit', { reason: refusalLine(t, events.error) })}
        </p>
      )}
      {events.data ? (
        <p aria-live="polite">
          {t(shown.length === 1 ? 'audit.count.one' : 'audit.count.other', { n: count(shown.length) })}
        </p>
      ) : (
        !events.error && <Loading label={t('audit.loading')} />
      )}
      <ol className="audit">
        {shown.map((event) => (
          <li
            key={event.id}
            className={isGuardEvent(event.type) ? 'audit-event guard' : 'audit-event'}
            data-type={event.type}
          >
            <div className="entry-head">
              {event.type === 'guard.bypassed' && <strong className="badge bypass">{t('audit.guardBypass')}</strong>}
              {event.type === 'guard.blocked' && <strong className="badge bad">{t('audit.guardBlock')}</strong>}
              <code>{event.type}</code>
              <Time iso={event.createdAt} />
            </div>
            <p>
              <strong>{event.actor}</strong>
              {event.channel && event.platform && event.runtimeVersion && (
                <>
                  {' · '}
                  <a
                    href={href.track({
                      channel: event.channel as Channel,
                      platform: event.platform as Platform,
                      runtimeVersion: event.runtimeVersion,
                    })}
                  >
                    {event.channel} · {event.platform} · {event.runtimeVersion}
                  </a>
                </>
              )}
              {event.releaseId && (
                <>
                  {' · '}
                  {t('common.release')} <a href={href.release(event.releaseId)}>{shortId(event.releaseId)}</a>
                </>
              )}
            </p>
            {Object.keys(event.details).length > 0 && (
              <details>
                <summary>{t('audit.details')}</summary>
                <pre>{JSON.stringify(event.details, null, 2)}</pre>
              </details>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
