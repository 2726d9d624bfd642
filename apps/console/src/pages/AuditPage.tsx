import { AuditEventPage, CHANNELS, type Channel, PLATFORMS, type Platform } from '@ferry/contracts';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { getJson } from '../api.js';
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

const EMPTY: Filters = { type: '', channel: '', platform: '', runtimeVersion: '', actor: '', since: '', until: '' };
/** Events per page: a screenful or two; "Load more" reads the next, older page. */
const PAGE_SIZE = 100;

/**
 * One newest-first page (order=newest), every filter applied by the server: after `cursor` when
 * given (the previous page's nextCursor), so pages neither overlap nor skip.
 */
async function loadPage(filters: Filters, cursor: string | null): Promise<AuditEventPage> {
  const query = new URLSearchParams({ order: 'newest', limit: String(PAGE_SIZE) });
  if (cursor) query.set('cursor', cursor);
  if (filters.type.trim()) query.set('type', filters.type.trim());
  if (filters.actor.trim()) query.set('actor', filters.actor.trim());
  if (filters.runtimeVersion.trim()) query.set('runtimeVersion', filters.runtimeVersion.trim());
  for (const key of ['channel', 'platform'] as const) if (filters[key]) query.set(key, filters[key]);
  // A date alone: `from` its midnight, `to` through the end of that day (UTC), as the server reads them.
  if (filters.since) query.set('from', filters.since);
  if (filters.until) query.set('to', filters.until);
  return getJson(`/api/audit-events?${query}`, AuditEventPage);
}

const isGuardEvent = (type: string) => type === 'guard.bypassed' || type === 'guard.blocked';

/** The audit log, newest first, a page at a time; filters by type, track, actor and time; guard bypasses stand out. */
export function AuditPage() {
  const { t, count } = useT();
  const live = useLiveVersion();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  /** The older pages read with "Load more", after the first. */
  const [older, setOlder] = useState<AuditEventPage | null>(null);
  const [moreError, setMoreError] = useState<Error>();
  const [loadingMore, setLoadingMore] = useState(false);
  // A live change reads the first page again only while no older page is shown: reading on through
  // the log is never reset under the operator's eyes (Apply reads it again from the newest).
  const liveKey = useRef(live);
  if (older === null) liveKey.current = live;
  const first = useResource(() => loadPage(applied, null), `${JSON.stringify(applied)} ${liveKey.current}`);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new first page starts the list again.
  useEffect(() => {
    setOlder(null);
    setMoreError(undefined);
  }, [first.data]);
  const shown = useMemo(() => [...(first.data?.events ?? []), ...(older?.events ?? [])], [first.data, older]);
  const nextCursor = older ? older.nextCursor : (first.data?.nextCursor ?? null);
  const loadMore = async () => {
    if (!nextCursor) return;
    setLoadingMore(true);
    setMoreError(undefined);
    try {
      const page = await loadPage(applied, nextCursor);
      setOlder((previous) => ({ events: [...(previous?.events ?? []), ...page.events], nextCursor: page.nextCursor }));
    } catch (reason) {
      setMoreError(reason instanceof Error ? reason : new Error(String(reason)));
    } finally {
      setLoadingMore(false);
    }
  };
  const field = (key: keyof Filters) => ({
    id: `audit-${key}`,
    value: draft[key],
    onChange: (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: event.target.value })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied({ ...draft });
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
        <input {...field('actor')} placeholder={t('audit.actorPlaceholder')} />
        <label htmlFor="audit-since">{t('audit.since')}</label>
        <input type="date" {...field('since')} />
        <label htmlFor="audit-until">{t('audit.until')}</label>
        <input type="date" {...field('until')} />
        <button type="submit" className="primary">
          {t('audit.apply')}
        </button>
      </form>
      {first.error && (
        <p role="alert" className="error">
          {t('errors.audit', { reason: refusalLine(t, first.error) })}
        </p>
      )}
      {first.data ? (
        <p aria-live="polite">
          {t(shown.length === 1 ? 'audit.count.one' : 'audit.count.other', { n: count(shown.length) })}
          {nextCursor && ` ${t('audit.moreOlder')}`}
        </p>
      ) : (
        !first.error && <Loading label={t('audit.loading')} />
      )}
      <ol className="audit">
        {shown.map((event) => (
          <li
            key={event.id}
            className={isGuardEvent(event.type) ? 'audit-event guard' : 'audit-event'}
            data-type={event.type}
            data-event={event.id}
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
      {moreError && (
        <p role="alert" className="error">
          {t('errors.audit', { reason: refusalLine(t, moreError) })}
        </p>
      )}
      {first.data && nextCursor && (
        <button type="button" className="load-more" onClick={loadMore} disabled={loadingMore}>
          {loadingMore ? t('common.working') : t('audit.loadMore')}
        </button>
      )}
      {first.data && !nextCursor && shown.length > 0 && <p className="sub">{t('audit.end')}</p>}
    </section>
  );
}
