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
import { count, shortFingerprint, shortId, trackLabel, updatePolicy } from '../format.js';
import { useLiveVersion } from '../live.js';
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
          <span className="badge rollback">rollback of {shortId(metadata.rolledBackFrom)}</span>
        ) : (
          <span className="badge">release</span>
        )}
        {rollout && <span className={`badge state-${rollout.state}`}>{`${rollout.state} ${rollout.percent} %`}</span>}
        {isHead && <span className="badge active">active</span>}
        <Time iso={entry.createdAt} />
      </div>
      <p className="message">{metadata.message ?? <em>no message</em>}</p>
      <dl className="facts inline">
        <dt>Commit</dt>
        <dd>{metadata.commit ? <code>{metadata.commit.slice(0, 12)}</code> : '—'}</dd>
        <dt>Branch</dt>
        <dd>{metadata.branch ?? '—'}</dd>
        <dt>Actor</dt>
        <dd>{metadata.actor ?? '—'}</dd>
        <dt>Fingerprint</dt>
        <dd>
          {metadata.fingerprint ? (
            <>
              <code title={metadata.fingerprint}>{shortFingerprint(metadata.fingerprint)}</code>{' '}
              <CopyButton value={metadata.fingerprint} label={`fingerprint of ${shortId(entry.id)}`} />
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Update policy</dt>
        <dd>{updatePolicy(entry.updatePolicy)}</dd>
        {!open && (
          <>
            <dt>Devices received · failed</dt>
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
        <a href={href.tracks()}>Tracks</a> /
      </p>
      <h1 id="track-title">{trackLabel(track)}</h1>
      {history.error && (
        <p role="alert" className="error">
          Could not load the history: {history.error.message}
        </p>
      )}
      {!history.data && !history.error && <Loading label="Loading the track’s history…" />}
      {history.data && (
        <p className="sub">
          Devices seen running a release of this track: {count(devices.last24h)} in the last 24 hours,{' '}
          {count(devices.last7d)} in the last 7 days.
        </p>
      )}
      {head && (
        <div className="actions track-actions">
          {head.kind === 'directive' ? (
            <p>
              <span className="badge state-embedded">embedded</span> Devices run their embedded bundle.
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
      <h2>History</h2>
      <ol className="history">
        {entries.map((entry) =>
          entry.kind === 'directive' ? (
            <li key={entry.id} className="entry directive" data-entry={entry.id}>
              <div className="entry-head">
                <span className="badge state-embedded">roll back to embedded</span>
                {entry === head && <span className="badge active">active</span>}
                <Time iso={entry.createdAt} />
              </div>
              <p className="message">Directive by {entry.actor}</p>
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
      {history.data && entries.length === 0 && <p>This track has no release.</p>}
    </section>
  );
}
