import { type ConsoleHistoryEntry, ConsoleHistoryResponse, type Track } from '@ferry/contracts';
import { getJson } from '../api.js';
import { CopyButton } from '../components/CopyButton.js';
import { RollBackToEmbedded, RollbackTo, RolloutActions } from '../components/TrackActions.js';
import { dateTime, shortFingerprint, shortId, trackLabel, updatePolicy } from '../format.js';
import { useLiveVersion } from '../live.js';
import { href } from '../router.js';
import { useResource } from '../use-resource.js';

type ReleaseEntry = Extract<ConsoleHistoryEntry, { kind: 'release' }>;

function ReleaseItem({
  entry,
  track,
  isHead,
  onDone,
}: {
  entry: ReleaseEntry;
  track: Track;
  /** The entry devices get: every other release may be rolled back to, the newest too under a directive. */
  isHead: boolean;
  onDone: (m: string) => void;
}) {
  const { metadata, rollout } = entry;
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
        <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
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
      </dl>
      {rollout?.reason && <p className="reason">{rollout.reason}</p>}
      {isHead && rollout?.state === 'running' && (
        <RolloutActions track={track} releaseId={entry.id} percent={rollout.percent} onDone={onDone} />
      )}
      {!isHead && (
        <div className="actions">
          <RollbackTo track={track} releaseId={entry.id} onDone={onDone} />
        </div>
      )}
    </li>
  );
}

/** A track's releases newest first; rollbacks and directives shown as such, with the actions. */
export function TrackPage({ track, onDone }: { track: Track; onDone: (message: string) => void }) {
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
      {head && (
        <div className="actions track-actions">
          {head.kind === 'directive' ? (
            <p>
              <span className="badge state-embedded">embedded</span> Devices run their embedded bundle.
            </p>
          ) : (
            <RollBackToEmbedded track={track} activeReleaseId={headRelease?.id ?? null} onDone={done} />
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
                <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
              </div>
              <p className="message">Directive by {entry.actor}</p>
            </li>
          ) : (
            <ReleaseItem key={entry.id} entry={entry} track={track} isHead={entry === head} onDone={done} />
          ),
        )}
      </ol>
      {history.data && entries.length === 0 && <p>This track has no release.</p>}
    </section>
  );
}
