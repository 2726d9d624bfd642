import { CONSOLE_TRACK_STATES, type ConsoleTrack, ConsoleTracksResponse } from '@ferry/contracts';
import { useId, useMemo, useState } from 'react';
import { Trans } from 'react-i18next';
import { getJson } from '../api.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { percent, shortId, trackLabel } from '../format.js';
import { CONSOLE_NAMESPACE } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';
import { useLiveVersion } from '../live.js';
import { refusalLine } from '../refusal.js';
import { href } from '../router.js';
import { type Row, rowsOf } from '../track-rows.js';
import { useResource } from '../use-resource.js';

type SortKey = 'track' | 'state' | 'rollout' | 'adoption' | 'failure' | 'published' | 'guard';

/** The columns, in order; each is labelled by the catalogue's `tracks.columns.<key>`. */
const COLUMNS: SortKey[] = ['track', 'state', 'rollout', 'adoption', 'failure', 'published', 'guard'];

const sortValue = (t: ConsoleTrack, key: SortKey): string | number => {
  switch (key) {
    case 'track':
      return trackLabel(t);
    case 'state':
      return t.state;
    case 'rollout':
      return t.rolloutPercent;
    case 'adoption':
      return t.adoption24h;
    case 'failure':
      return t.failureRate ?? -1;
    case 'published':
      return t.lastPublishAt;
    case 'guard':
      return t.guardBlocks;
  }
};

/** Every channel × platform × runtimeVersion at a glance; sortable and filterable. */
export function TracksPage() {
  const { t } = useT();
  const label = (key: SortKey) => t(`tracks.columns.${key}`);
  const live = useLiveVersion();
  const tracks = useResource(() => getJson('/api/console/tracks', ConsoleTracksResponse), live);
  const [text, setText] = useState('');
  const [state, setState] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: 'published', descending: true });
  const filterId = useId();
  const stateId = useId();
  const sortId = useId();
  const rows = useMemo(() => {
    const needle = text.trim().toLowerCase();
    const matches = (track: ConsoleTrack) =>
      (state === '' || track.state === state) &&
      (needle === '' ||
        `${trackLabel(track)} ${track.message ?? ''} ${track.activeReleaseId ?? ''} ${track.activeGroupId ?? ''}`
          .toLowerCase()
          .includes(needle));
    // A group row stays whole when one of its platforms matches: it is acted on as one.
    const filtered = rowsOf(tracks.data?.tracks ?? []).filter((row) => row.tracks.some(matches));
    const direction = sort.descending ? -1 : 1;
    const first = (row: Row) => row.tracks[0] as ConsoleTrack;
    return filtered.sort((a, b) => {
      const x = sortValue(first(a), sort.key);
      const y = sortValue(first(b), sort.key);
      return (x < y ? -1 : x > y ? 1 : 0) * direction;
    });
  }, [tracks.data, text, state, sort]);

  const none = tracks.data !== undefined && tracks.data.tracks.length === 0;
  return (
    <section aria-labelledby="tracks-title">
      <h1 id="tracks-title">{t('tracks.title')}</h1>
      {tracks.error && (
        <p role="alert" className="error">
          {t('errors.tracks', { reason: refusalLine(t, tracks.error) })}
        </p>
      )}
      {!tracks.data && !tracks.error && <Loading label={t('tracks.loading')} />}
      {none && <NoReleasesYet />}
      {tracks.data && !none && (
        <>
          <div className="filters">
            <label htmlFor={filterId}>{t('tracks.filter')}</label>
            <input
              id={filterId}
              type="search"
              value={text}
              placeholder={t('tracks.filterPlaceholder')}
              onChange={(event) => setText(event.target.value)}
            />
            <label htmlFor={stateId}>{t('tracks.state')}</label>
            <select id={stateId} value={state} onChange={(event) => setState(event.target.value)}>
              <option value="">{t('tracks.any')}</option>
              {CONSOLE_TRACK_STATES.map((s) => (
                <option key={s} value={s}>
                  {t(`states.${s}`)}
                </option>
              ))}
            </select>
            {/* The column headers sort too; on a phone they are hidden (rows become cards), this is not. */}
            <label htmlFor={sortId}>{t('tracks.sortBy')}</label>
            <select
              id={sortId}
              value={`${sort.key}:${sort.descending ? 'desc' : 'asc'}`}
              onChange={(event) => {
                const [key, direction] = event.target.value.split(':');
                setSort({ key: key as SortKey, descending: direction === 'desc' });
              }}
            >
              {COLUMNS.flatMap((column) => [
                <option key={`${column}:asc`} value={`${column}:asc`}>
                  {label(column)} ↑
                </option>,
                <option key={`${column}:desc`} value={`${column}:desc`}>
                  {label(column)} ↓
                </option>,
              ])}
            </select>
          </div>
          <table className="data tracks">
            <caption className="visually-hidden">
              {t('tracks.caption', {
                column: label(sort.key),
                direction: sort.descending ? t('tracks.descending') : t('tracks.ascending'),
              })}
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column}
                    scope="col"
                    aria-sort={sort.key === column ? (sort.descending ? 'descending' : 'ascending') : undefined}
                  >
                    <button
                      type="button"
                      className="sort"
                      onClick={() =>
                        setSort((s) => ({
                          key: column,
                          descending: s.key === column ? !s.descending : column !== 'track',
                        }))
                      }
                    >
                      {label(column)}
                      <span aria-hidden="true">{sort.key === column ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                row.tracks.length > 1 && row.groupId !== null ? (
                  <GroupRow key={row.key} groupId={row.groupId} tracks={row.tracks} />
                ) : (
                  <TrackRow key={row.key} track={row.tracks[0] as ConsoleTrack} />
                ),
              )}
            </tbody>
          </table>
          {rows.length === 0 && <p>{t('tracks.noMatch')}</p>}
        </>
      )}
    </section>
  );
}

const useLabel = () => {
  const { t } = useT();
  return (key: SortKey) => t(`tracks.columns.${key}`);
};

/** One track's row. */
function TrackRow({ track }: { track: ConsoleTrack }) {
  const { t, count } = useT();
  const label = useLabel();
  return (
    <tr data-track={`${track.channel}/${track.platform}/${track.runtimeVersion}`}>
      <td data-label={label('track')}>
        <div>
          <a href={href.track(track)}>{trackLabel(track)}</a>
          {track.activeReleaseId && (
            <div className="sub">
              <a
                href={href.release(track.activeReleaseId)}
                aria-label={t('tracks.releaseLink', { id: shortId(track.activeReleaseId) })}
              >
                {shortId(track.activeReleaseId)}
              </a>{' '}
              {track.message}
            </div>
          )}
        </div>
      </td>
      <td data-label={label('state')}>
        <span className={`badge state-${track.state}`}>{t(`states.${track.state}`)}</span>
      </td>
      <td data-label={label('rollout')}>{track.state === 'embedded' ? '—' : `${track.rolloutPercent} %`}</td>
      <td data-label={label('adoption')}>{count(track.adoption24h)}</td>
      <td data-label={label('failure')}>{percent(track.failureRate)}</td>
      <td data-label={label('published')}>
        <Time iso={track.lastPublishAt} />
      </td>
      <td data-label={label('guard')}>
        {count(track.guardBlocks)}
        {track.guardBypasses > 0 && (
          <>
            {' '}
            <span className="badge bypass">{t('tracks.bypassed', { n: count(track.guardBypasses) })}</span>
          </>
        )}
      </td>
    </tr>
  );
}

/**
 * A release group's row: its platforms as badges linking to each track, one value where the
 * platforms agree and each platform's where they differ; the group's page has the rest.
 */
function GroupRow({ groupId, tracks }: { groupId: string; tracks: ConsoleTrack[] }) {
  const { t, count } = useT();
  const label = useLabel();
  const first = tracks[0] as ConsoleTrack;
  const name = (track: ConsoleTrack) => t(`platforms.${track.platform}`);
  /** One value when every platform has it, else "iOS x · Android y". */
  const each = (value: (track: ConsoleTrack) => string) => {
    const values = tracks.map(value);
    return values.every((v) => v === values[0])
      ? values[0]
      : tracks.map((track, i) => `${name(track)} ${values[i]}`).join(' · ');
  };
  const sameRuntime = tracks.every((track) => track.runtimeVersion === first.runtimeVersion);
  return (
    <tr data-group={groupId}>
      <td data-label={label('track')}>
        <div>
          <a href={href.group(groupId)} aria-label={t('tracks.groupLink', { id: shortId(groupId) })}>
            {sameRuntime ? `${first.channel} · ${first.runtimeVersion}` : first.channel}
          </a>{' '}
          <span className="platform-badges">
            {tracks.map((track) => (
              <a
                key={track.platform}
                className="badge platform"
                href={href.track(track)}
                aria-label={t('tracks.platformTrack', { track: trackLabel(track) })}
              >
                {name(track)}
              </a>
            ))}
          </span>
          <div className="sub">
            {t('tracks.groupOf', { id: shortId(groupId) })} {first.message}
          </div>
        </div>
      </td>
      <td data-label={label('state')}>
        {tracks.every((track) => track.state === first.state) ? (
          <span className={`badge state-${first.state}`}>{t(`states.${first.state}`)}</span>
        ) : (
          tracks.map((track) => (
            <span key={track.platform} className={`badge state-${track.state}`}>
              {`${name(track)} ${t(`states.${track.state}`)}`}
            </span>
          ))
        )}
      </td>
      <td data-label={label('rollout')}>
        {each((track) => (track.state === 'embedded' ? '—' : `${track.rolloutPercent} %`))}
      </td>
      <td data-label={label('adoption')}>{count(tracks.reduce((sum, track) => sum + track.adoption24h, 0))}</td>
      <td data-label={label('failure')}>{each((track) => percent(track.failureRate))}</td>
      <td data-label={label('published')}>
        <Time iso={first.lastPublishAt} />
      </td>
      <td data-label={label('guard')}>{each((track) => count(track.guardBlocks))}</td>
    </tr>
  );
}

/** A new server: nothing is published yet, so say how the first release gets here. */
function NoReleasesYet() {
  const { t } = useT();
  return (
    <div className="empty-state">
      <h2>{t('tracks.empty.title')}</h2>
      <p>{t('tracks.empty.body')}</p>
      <pre>
        <code>npx ferry publish --channel production</code>
      </pre>
      <p className="sub">
        <Trans
          ns={CONSOLE_NAMESPACE}
          i18nKey="tracks.empty.needs"
          components={[<code key="server" />, <code key="token" />]}
        />
      </p>
    </div>
  );
}
