import type { ConsoleHealth, ConsoleRollout, ConsoleTrackDevices, HaltRule, Track } from '@ferry/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { send } from '../api.js';
import { count, percent, share, shortId, trackLabel } from '../format.js';
import { type ReachAction, reachOf } from '../reach.js';
import { type RolloutRisk, rolloutRisk, suggestedShare } from '../rollout-risk.js';
import { useMay } from '../session.js';
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

const devices = (n: number) => `${count(n)} device${n === 1 ? '' : 's'}`;

/** About how many devices an action reaches, in a sentence; says so when it cannot be estimated. */
function Reach({ action, facts }: { action: ReachAction; facts: { trackDevices: number; received: number } }) {
  const reach = reachOf(action, facts);
  let text: string;
  if (reach === null) {
    text =
      'No device has reported running a release of this track in the last 7 days, so how many devices this reaches cannot be estimated.';
  } else if (action.kind === 'revert') {
    text =
      reach === 0
        ? 'No device has received this release yet.'
        : `About ${devices(reach)} that received this release will go back on their next check.`;
  } else if (action.kind === 'whole-track') {
    text = `About ${devices(reach)} on this track will get this on their next check.`;
  } else {
    text =
      reach === 0
        ? 'No more devices will get this release: as many as the share holds have it already.'
        : `About ${devices(reach)} will get this release on their next check.`;
  }
  return (
    <p className="reach">
      <strong>{text}</strong>
      {reach !== null && action.kind !== 'revert' && (
        <span className="sub">
          Estimated from the {devices(facts.trackDevices)} seen running a release of this track in the last 7 days.
        </span>
      )}
    </p>
  );
}

export const haltRuleText = (rule: HaltRule | null): string =>
  rule === null
    ? 'none: the rollout never halts by itself'
    : `halts at ${share(rule.failureRate)} failures once ${devices(rule.minDevices)} received it`;

const failuresText = (risk: Exclude<RolloutRisk, { kind: 'healthy' }>) =>
  `${count(risk.failed)} of ${devices(risk.received)} that received this release reported it failed (${percent(
    risk.received === 0 ? null : risk.failed / risk.received,
  )}).`;

/** The warning next to the controls and in every dialog that widens the rollout. */
function RiskWarning({ risk, halted }: { risk: RolloutRisk; halted: boolean }) {
  if (risk.kind === 'healthy') return null;
  return (
    <div className="warning">
      <p>
        <strong>{risk.kind === 'past-halt-rule' ? 'Past its halt rule.' : 'Devices report failures.'}</strong>{' '}
        {failuresText(risk)}
        {halted && ' The rollout halted: no other device gets this release until you widen or complete it.'}
      </p>
    </div>
  );
}

export interface RolloutControlsProps extends Done {
  track: Track;
  releaseId: string;
  rollout: ConsoleRollout;
  health: ConsoleHealth;
  trackDevices: ConsoleTrackDevices;
}

/**
 * A running or halted rollout: its health next to the controls that widen, complete or revert it
 * (POST /api/updates/rollouts/:id). A release with failures offers no pre-filled share, and every
 * dialog that widens it repeats the warning and needs it acknowledged.
 */
export function RolloutControls({ track, releaseId, rollout, health, trackDevices, onDone }: RolloutControlsProps) {
  const may = useMay();
  const inputId = useId();
  const warningId = useId();
  const risk = rolloutRisk(rollout, health);
  const halted = rollout.state === 'halted';
  const suggestion = suggestedShare(rollout.percent, risk);
  const [shareText, setShare] = useState(suggestion);
  // A live update that brings failures takes back a suggestion the operator has not edited.
  const suggested = useRef(suggestion);
  useEffect(() => {
    setShare((current) => (current === suggested.current ? suggestion : current));
    suggested.current = suggestion;
  }, [suggestion]);
  const value = Number(shareText);
  const valid = shareText.trim() !== '' && Number.isInteger(value) && value >= 1 && value <= 100;
  const change = (body: unknown) => send(`/api/updates/rollouts/${releaseId}`, 'POST', body);
  const facts = { trackDevices: trackDevices.last7d, received: health.received };
  const acknowledge =
    risk.kind === 'healthy'
      ? undefined
      : `I have read the failures (${count(risk.failed)} of ${devices(risk.received)}) and still want to widen this rollout.`;
  const widens = (to: number) => halted || to > rollout.percent;
  return (
    <div className="rollout-controls">
      <dl className="facts inline rollout-health" aria-label={`Health of release ${shortId(releaseId)}`}>
        <dt>Failure rate</dt>
        <dd>{percent(health.received === 0 ? null : health.failed / health.received)}</dd>
        <dt>Devices received</dt>
        <dd>{count(health.received)}</dd>
        <dt>Failed</dt>
        <dd>{count(health.failed)}</dd>
        <dt>Halt rule</dt>
        <dd>{haltRuleText(rollout.haltRule)}</dd>
      </dl>
      <div id={warningId} className="risk">
        <RiskWarning risk={risk} halted={halted} />
      </div>
      {may('rollout.change') && (
        <fieldset className="actions" aria-describedby={risk.kind === 'healthy' ? undefined : warningId}>
          <legend className="visually-hidden">Rollout of release {shortId(releaseId)}</legend>
          <label htmlFor={inputId}>New share (%)</label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={shareText}
            placeholder={risk.kind === 'healthy' ? undefined : '1–100'}
            onChange={(event) => setShare(event.target.value)}
            aria-invalid={shareText !== '' && !valid}
          />
          <ConfirmAction
            label={halted ? 'Resume at share' : 'Change share'}
            title="Change the rollout share"
            confirmLabel={`Set to ${valid ? value : '?'} %`}
            disabled={!valid}
            acknowledge={valid && widens(value) ? acknowledge : undefined}
            action={() => change({ action: 'percent', percent: value })}
            onDone={onDone}
          >
            <p>
              {halted
                ? `The halted rollout resumes: devices on this track get the release at ${valid ? value : '?'} %.`
                : `Devices on this track get the release at ${valid ? value : '?'} % instead of ${rollout.percent} %.`}
            </p>
            <RiskWarning risk={risk} halted={halted} />
            {valid && !widens(value) ? (
              <p className="reach">
                <strong>No more devices will get this release; devices that run it keep it.</strong>
              </p>
            ) : (
              <Reach action={{ kind: 'share', to: valid ? value : rollout.percent }} facts={facts} />
            )}
            <TrackAndRelease track={track} releaseId={releaseId} />
          </ConfirmAction>
          <ConfirmAction
            label="Complete"
            title="Complete the rollout"
            confirmLabel="Complete rollout"
            acknowledge={acknowledge}
            action={() => change({ action: 'complete' })}
            onDone={onDone}
          >
            <p>Every device on this track gets the release.</p>
            <RiskWarning risk={risk} halted={halted} />
            <Reach action={{ kind: 'complete' }} facts={facts} />
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
            <p>
              Devices that received the release go back to what the rest of the track gets: its previous complete
              release, or the embedded bundle when there is none.
            </p>
            <Reach action={{ kind: 'revert' }} facts={facts} />
            <TrackAndRelease track={track} releaseId={releaseId} />
          </ConfirmAction>
        </fieldset>
      )}
    </div>
  );
}

/** Republish an earlier release as the newest (POST /api/updates/rollback with `to`). */
export function RollbackTo({
  track,
  releaseId,
  trackDevices,
  onDone,
}: { track: Track; releaseId: string; trackDevices: ConsoleTrackDevices } & Done) {
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
      <Reach action={{ kind: 'whole-track' }} facts={{ trackDevices: trackDevices.last7d, received: 0 }} />
      <TrackAndRelease track={track} releaseId={releaseId} />
    </ConfirmAction>
  );
}

/** Every device of the track runs its build's embedded bundle (POST /api/updates/directives). */
export function RollBackToEmbedded({
  track,
  activeReleaseId,
  trackDevices,
  onDone,
}: { track: Track; activeReleaseId: string | null; trackDevices: ConsoleTrackDevices } & Done) {
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
      <Reach action={{ kind: 'whole-track' }} facts={{ trackDevices: trackDevices.last7d, received: 0 }} />
      <dl className="facts">
        <dt>Track</dt>
        <dd>{trackLabel(track)}</dd>
        <dt>Release replaced</dt>
        <dd>{activeReleaseId ? <code>{activeReleaseId}</code> : 'none'}</dd>
      </dl>
    </ConfirmAction>
  );
}
