import {
  type ConsoleHistoryEntry,
  ConsoleHistoryResponse,
  type ConsoleTrackDevices,
  type Track,
} from '@ferry/contracts';
import { getJson } from '../api.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { RollBackToEmbedded, RollbackTo, RolloutControls } from '../components/TrackActions.js';
import { shortFingerprint, shortId, trackLabel } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { useLiveVersion } from '../live.js';
import { refusalLine } from '../refusal.js';
import { href } from '../router.js';
import { useMay } from '../session.js';
import { useResource } from '../use-resource.js';

type ReleaseEntry = Extract<ConsoleHistoryEntry, { kind: 'release' }>;

function ReleaseItem({
  entry,
  track,
  trackDevices,
  isHead,
  onDone,
}: {
  entry: ReleaseEntry;
  track: Track;
  trackDevices: ConsoleTrackDevices;
  /** The entry devices get: every other release may be rolled back to, the newest too under a directive. */
  isHead: boolean;
  onDone: (m: string) => void;
}) {
  const { t, count, policy } = useT();
  const may = useMay();
  const { metadata, rollout } = entry;
  const open = rollout?.state === 'running' || rollout?.state === 'halted';
  return (
    <li className="entry" data-entry={entry.id}>
      <div className="entry-head">
        <a href={href.release(entry.id)}>
          <code>{shortId(entry.id)}</code>
        </a>
        {metadata.rolledBackFrom ? (
          <span className="badge rollback">{t('track.rollbackOf', { id: shortId(metadata.rolledBackFrom) })}</span>
        ) : (
          <span className="badge">{t('track.releaseBadge')}</span>
        )}
        {rollout && (
          <span
            className={`badge state-${rollout.state}`}
          >{`${t(`states.${rollout.state}`)} ${rollout.percent} %`}</span>
        )}
        {isHead && <span className="badge active">{t('track.active')}</span>}
        {entry.groupId && (
          <a className="badge platform" href={href.group(entry.groupId)}>
            {t('track.groupLink', { id: shortId(entry.groupId) })}
          </a>
        )}
        <Time iso={entry.createdAt} />
      </div>
      <p className="message">{metadata.message ?? <em>{t('track.noMessage')}</em>}</p>
      <dl className="facts inline">
        <dt>{t('track.commit')}</dt>
        <dd>{metadata.commit ? <code>{metadata.commit.slice(0, 12)}</code> : '—'}</dd>
        <dt>{t('track.branch')}</dt>
        <dd>{metadata.branch ?? '—'}</dd>
        <dt>{t('track.actor')}</dt>
        <dd>{metadata.actor ?? '—'}</dd>
        <dt>{t('track.fingerprint')}</dt>
        <dd>
          {metadata.fingerprint ? (
            <>
              <code title={metadata.fingerprint}>{shortFingerprint(metadata.fingerprint)}</code>{' '}
              <CopyButton value={metadata.fingerprint} label={t('track.fingerprintOf', { id: shortId(entry.id) })} />
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('track.updatePolicy')}</dt>
        <dd>{policy(entry.updatePolicy)}</dd>
        {!open && (
          <>
            <dt>{t('track.receivedFailed')}</dt>
            <dd>
              {count(entry.health.received)} · {count(entry.health.failed)}
            </dd>
          </>
        )}
      </dl>
      {rollout?.reason && <p className="reason">{rollout.reason}</p>}
      {isHead && rollout && open && (
        <RolloutControls
          track={track}
          releaseId={entry.id}
          rollout={rollout}
          health={entry.health}
          trackDevices={trackDevices}
          onDone={onDone}
        />
      )}
      {!isHead && may('rollback') && (
        <div className="actions">
          <RollbackTo track={track} releaseId={entry.id} trackDevices={trackDevices} onDone={onDone} />
        </div>
      )}
    </li>
  );
}

/** A track's releases newest first; rollbacks and directives shown as such, with the actions. */
export function TrackPage({ track, onDone }: { track: Track; onDone: (message: string) => void }) {
  const { t, count } = useT();
  const may = useMay();
  const live = useLiveVersion(track);
  const history = useResource(
    () => getJson(`/api/console/history?${new URLSearchParams(track).toString()}`, ConsoleHistoryResponse),
    `${trackLabel(track)} ${live}`,
  );
  // After an action, read again at once (the live event would also bring it, when the stream is up).
  const done = (message: string) => {
    onDone(message);
    history.reload();
  };
  const entries = history.data?.entries ?? [];
  const devices = history.data?.devices ?? { last24h: 0, last7d: 0 };
  const head = entries[0];
  const headRelease = entries.find((entry) => entry.kind === 'release');
  return (
    <section aria-labelledby="track-title">
      <p className="crumbs">
        <a href={href.tracks()}>{t('nav.tracks')}</a> /
      </p>
      <h1 id="track-title">{trackLabel(track)}</h1>
      {history.error && (
        <p role="alert" className="error">
          {t('errors.history', { reason: refusalLine(t, history.error) })}
        </p>
      )}
      {!history.data && !history.error && <Loading label={t('track.loading')} />}
      {history.data && (
        <p className="sub">{t('track.devicesSeen', { day: count(devices.last24h), week: count(devices.last7d) })}</p>
      )}
      {head && (
        <div className="actions track-actions">
          {head.kind === 'directive' ? (
            <p>
              <span className="badge state-embedded">{t('states.embedded')}</span> {t('track.embeddedNow')}
            </p>
          ) : (
            may('directive.create') && (
              <RollBackToEmbedded
                track={track}
                activeReleaseId={headRelease?.id ?? null}
                trackDevices={devices}
                onDone={done}
              />
            )
          )}
        </div>
      )}
      <h2>{t('track.history')}</h2>
      <ol className="history">
        {entries.map((entry) =>
          entry.kind === 'directive' ? (
            <li key={entry.id} className="entry directive" data-entry={entry.id}>
              <div className="entry-head">
                <span className="badge state-embedded">{t('track.directive')}</span>
                {entry === head && <span className="badge active">{t('track.active')}</span>}
                <Time iso={entry.createdAt} />
              </div>
              <p className="message">{t('track.directiveBy', { actor: entry.actor })}</p>
            </li>
          ) : (
            <ReleaseItem
              key={entry.id}
              entry={entry}
              track={track}
              trackDevices={devices}
              isHead={entry === head}
              onDone={done}
            />
          ),
        )}
      </ol>
      {history.data && entries.length === 0 && <p>{t('track.noRelease')}</p>}
    </section>
  );
}
