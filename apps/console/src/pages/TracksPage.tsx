import { CONSOLE_TRACK_STATES, type ConsoleTrack, ConsoleTracksResponse } from '@ferry/contracts';
import { useId, useMemo, useState } from 'react';
import { getJson } from '../api.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { count, percent, shortId, trackLabel } from '../format.js';
import { useLiveVersion } from '../live.js';
import { href } from '../router.js';
import { useResource } from '../use-resource.js';

type SortKey = 'track' | 'state' | 'rollout' | 'adoption' | 'failure' | 'published' | 'guard';

const COLUMNS: Array<{ key: SortKey; label: string }> = [
  { key: 'track', label: 'Track' },
  { key: 'state', label: 'State' },
  { key: 'rollout', label: 'Rollout' },
  { key: 'adoption', label: 'Adoption 24 h' },
  { key: 'failure', label: 'Failure rate' },
  { key: 'published', label: 'Last publish' },
  { key: 'guard', label: 'Guard blocks' },
];

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
    const filtered = (tracks.data?.tracks ?? []).filter(
      (t) =>
        (state === '' || t.state === state) &&
        (needle === '' ||
          `${trackLabel(t)} ${t.message ?? ''} ${t.activeReleaseId ?? ''}`.toLowerCase().includes(needle)),
    );
    const direction = sort.descending ? -1 : 1;
    return filtered.sort((a, b) => {
      const x = sortValue(a, sort.key);
      const y = sortValue(b, sort.key);
      return (x < y ? -1 : x > y ? 1 : 0) * direction;
    });
  }, [tracks.data, text, state, sort]);

  const none = tracks.data !== undefined && tracks.data.tracks.length === 0;
  return (
    <section aria-labelledby="tracks-title">
      <h1 id="tracks-title">Tracks</h1>
      {tracks.error && (
        <p role="alert" className="error">
          Could not load the tracks: {tracks.error.message}
        </p>
      )}
      {!tracks.data && !tracks.error && <Loading label="Loading tracks…" />}
      {none && <NoReleasesYet />}
      {tracks.data && !none && (
        <>
          <div className="filters">
            <label htmlFor={filterId}>Filter</label>
            <input
              id={filterId}
              type="search"
              value={text}
              placeholder="channel, platform, runtime, message"
              onChange={(event) => setText(event.target.value)}
            />
            <label htmlFor={stateId}>State</label>
            <select id={stateId} value={state} onChange={(event) => setState(event.target.value)}>
              <option value="">any</option>
              {CONSOLE_TRACK_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            {/* The column headers sort too; on a phone they are hidden (rows become cards), this is not. */}
            <label htmlFor={sortId}>Sort by</label>
            <select
              id={sortId}
              value={`${sort.key}:${sort.descending ? 'desc' : 'asc'}`}
              onChange={(event) => {
                const [key, direction] = event.target.value.split(':');
                setSort({ key: key as SortKey, descending: direction === 'desc' });
              }}
            >
              {COLUMNS.flatMap((column) => [
                <option key={`${column.key}:asc`} value={`${column.key}:asc`}>
                  {column.label} ↑
                </option>,
                <option key={`${column.key}:desc`} value={`${column.key}:desc`}>
                  {column.label} ↓
                </option>,
              ])}
            </select>
          </div>
          <table className="data tracks">
            <caption className="visually-hidden">
              Tracks, sorted by {COLUMNS.find((c) => c.key === sort.key)?.label}{' '}
              {sort.descending ? 'descending' : 'ascending'}
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <th
                    key={column.key}
                    scope="col"
                    aria-sort={sort.key === column.key ? (sort.descending ? 'descending' : 'ascending') : undefined}
                  >
                    <button
                      type="button"
                      className="sort"
                      onClick={() =>
                        setSort((s) => ({
                          key: column.key,
                          descending: s.key === column.key ? !s.descending : column.key !== 'track',
                        }))
                      }
                    >
                      {column.label}
                      <span aria-hidden="true">{sort.key === column.key ? (sort.descending ? ' ▼' : ' ▲') : ''}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((t) => (
                <tr key={trackLabel(t)} data-track={`${t.channel}/${t.platform}/${t.runtimeVersion}`}>
                  <td data-label="Track">
                    <div>
                      <a href={href.track(t)}>{trackLabel(t)}</a>
                      {t.activeReleaseId && (
                        <div className="sub">
                          <a
                            href={href.release(t.activeReleaseId)}
                            aria-label={`Release ${shortId(t.activeReleaseId)}`}
                          >
                            {shortId(t.activeReleaseId)}
                          </a>{' '}
                          {t.message}
                        </div>
                      )}
                    </div>
                  </td>
                  <td data-label="State">
                    <span className={`badge state-${t.state}`}>{t.state}</span>
                  </td>
                  <td data-label="Rollout">{t.state === 'embedded' ? '—' : `${t.rolloutPercent} %`}</td>
                  <td data-label="Adoption 24 h">{count(t.adoption24h)}</td>
                  <td data-label="Failure rate">{percent(t.failureRate)}</td>
                  <td data-label="Last publish">
                    <Time iso={t.lastPublishAt} />
                  </td>
                  <td data-label="Guard blocks">
                    {t.guardBlocks}
                    {t.guardBypasses > 0 && (
                      <>
                        {' '}
                        <span className="badge bypass">{t.guardBypasses} bypassed</span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && <p>No track matches the filter.</p>}
        </>
      )}
    </section>
  );
}

/** A new server: nothing is published yet, so say how the first release gets here. */
function NoReleasesYet() {
  return (
    <div className="empty-state">
      <h2>No releases yet</h2>
      <p>
        Nothing has been published to this server. Publish the first release from your CI pipeline; it appears here as
        soon as the server accepts it:
      </p>
      <pre>
        <code>npx ferry publish --channel production</code>
      </pre>
      <p className="sub">
        The job needs <code>OTA_SERVER_URL</code> and the release token in <code>OTA_RELEASE_TOKEN</code>. Ferry’s
        publishing guide (docs/publishing.md) walks through the first publish.
      </p>
    </div>
  );
}
