import type { Track } from '@ferry/contracts';
import { useId, useState } from 'react';
import { send } from '../api.js';
import { shortId, trackLabel } from '../format.js';
import { ConfirmAction } from './ConfirmAction.js';

interface Done {
  onDone: (message: string) => void;
}

const TrackAndRelease = ({ track, releaseId }: { track: Track; releaseId: string }) => (
  <dl className="facts">
    <dt>Track</dt>
    <dd>{trackLabel(track)}</dd>
    <dt>Release</dt>
    <dd>
      <code>{releaseId}</code>
    </dd>
  </dl>
);

/** The running rollout's controls: a new share, complete, revert (POST /api/updates/rollouts/:id). */
export function RolloutActions({
  track,
  releaseId,
  percent,
  onDone,
}: { track: Track; releaseId: string; percent: number } & Done) {
  const inputId = useId();
  const [share, setShare] = useState(String(Math.min(100, percent * 2 || 10)));
  const value = Number(share);
  const valid = Number.isInteger(value) && value >= 1 && value <= 100;
  const change = (body: unknown) => send(`/api/updates/rollouts/${releaseId}`, 'POST', body);
  return (
    <fieldset className="actions">
      <legend className="visually-hidden">Rollout of release {shortId(releaseId)}</legend>
      <label htmlFor={inputId}>New share (%)</label>
      <input
        id={inputId}
        type="number"
        inputMode="numeric"
        min={1}
        max={100}
        value={share}
        onChange={(event) => setShare(event.target.value)}
        aria-invalid={!valid}
      />
      <ConfirmAction
        label="Change share"
        title="Change the rollout share"
        confirmLabel={`Set to ${valid ? value : '?'} %`}
        disabled={!valid}
        action={() => change({ action: 'percent', percent: value })}
        onDone={onDone}
      >
        <p>
          Devices on this track get the release at {valid ? value : '?'} % instead of {percent} %.
        </p>
        <TrackAndRelease track={track} releaseId={releaseId} />
      </ConfirmAction>
      <ConfirmAction
        label="Complete"
        title="Complete the rollout"
        confirmLabel="Complete rollout"
        action={() => change({ action: 'complete' })}
        onDone={onDone}
      >
        <p>Every device on this track gets the release.</p>
        <TrackAndRelease track={track} releaseId={releaseId} />
      </ConfirmAction>
      <ConfirmAction
        label="Revert"
        title="Revert the rollout"
        confirmLabel="Revert rollout"
        danger
        action={() => change({ action: 'revert' })}
        onDone={onDone}
      >
        <p>Devices that run the release go back to what the others get (the track's fallback).</p>
        <TrackAndRelease track={track} releaseId={releaseId} />
      </ConfirmAction>
    </fieldset>
  );
}

/** Republish an earlier release as the newest (POST /api/updates/rollback with `to`). */
export function RollbackTo({ track, releaseId, onDone }: { track: Track; releaseId: string } & Done) {
  return (
    <ConfirmAction
      label="Roll back to this"
      title="Roll back to an earlier release"
      confirmLabel="Roll back"
      danger
      action={() => send('/api/updates/rollback', 'POST', { ...track, to: releaseId })}
      onDone={onDone}
    >
      <p>This release becomes the track's newest again, for every device.</p>
      <TrackAndRelease track={track} releaseId={releaseId} />
    </ConfirmAction>
  );
}

/** Every device of the track runs its build's embedded bundle (POST /api/updates/directives). */
export function RollBackToEmbedded({
  track,
  activeReleaseId,
  onDone,
}: { track: Track; activeReleaseId: string | null } & Done) {
  return (
    <ConfirmAction
      label="Roll back to embedded"
      title="Roll back to the embedded bundle"
      confirmLabel="Roll back to embedded"
      danger
      action={() => send('/api/updates/directives', 'POST', { ...track, type: 'rollBackToEmbedded' })}
      onDone={onDone}
    >
      <p>
        Devices on this track stop running over-the-air updates and launch the bundle their build embeds, until the next
        publish.
      </p>
      <dl className="facts">
        <dt>Track</dt>
        <dd>{trackLabel(track)}</dd>
        <dt>Release replaced</dt>
        <dd>{activeReleaseId ? <code>{activeReleaseId}</code> : 'none'}</dd>
      </dl>
    </ConfirmAction>
  );
}
