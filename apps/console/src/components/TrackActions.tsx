import type { ConsoleHealth, ConsoleRollout, ConsoleTrackDevices, HaltRule, Track } from '@ferry/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { send } from '../api.js';
import { percent, share, shortId, trackLabel } from '../format.js';
import { type ConsoleTranslation, useT } from '../i18n/use-t.js';
import { type ReachAction, reachOf } from '../reach.js';
import { type RolloutRisk, rolloutRisk, suggestedShare } from '../rollout-risk.js';
import { useMay } from '../session.js';
import { ConfirmAction } from './ConfirmAction.js';

interface Done {
  onDone: (message: string) => void;
}

const TrackAndRelease = ({ track, releaseId }: { track: Track; releaseId: string }) => {
  const { t } = useT();
  return (
    <dl className="facts">
      <dt>{t('common.track')}</dt>
      <dd>{trackLabel(track)}</dd>
      <dt>{t('common.release')}</dt>
      <dd>
        <code>{releaseId}</code>
      </dd>
    </dl>
  );
};

/** About how many devices an action reaches, in a sentence; says so when it cannot be estimated. */
function Reach({ action, facts }: { action: ReachAction; facts: { trackDevices: number; received: number } }) {
  const { t, devices } = useT();
  const reach = reachOf(action, facts);
  let text: string;
  if (reach === null) text = t('reach.unknown');
  else if (action.kind === 'revert') {
    text = reach === 0 ? t('reach.revertNone') : t('reach.revert', { devices: devices(reach) });
  } else if (action.kind === 'whole-track') text = t('reach.wholeTrack', { devices: devices(reach) });
  else text = reach === 0 ? t('reach.shareNone') : t('reach.share', { devices: devices(reach) });
  return (
    <p className="reach">
      <strong>{text}</strong>
      {reach !== null && action.kind !== 'revert' && (
        <span className="sub">{t('reach.estimate', { devices: devices(facts.trackDevices) })}</span>
      )}
    </p>
  );
}

/** A halt rule in words: the failure rate it halts at, and after how many devices. */
export const haltRuleText = ({ t, devices }: Pick<ConsoleTranslation, 't' | 'devices'>, rule: HaltRule | null) =>
  rule === null
    ? t('rollout.haltRuleNone')
    : t('rollout.haltRuleText', { rate: share(rule.failureRate), devices: devices(rule.minDevices) });

/** The warning next to the controls and in every dialog that widens the rollout. */
export function RiskWarning({ risk, halted }: { risk: RolloutRisk; halted: boolean }) {
  const { t, count, devices } = useT();
  if (risk.kind === 'healthy') return null;
  return (
    <div className="warning">
      <p>
        <strong>{risk.kind === 'past-halt-rule' ? t('rollout.pastRule') : t('rollout.failures')}</strong>{' '}
        {t('rollout.figures', {
          failed: count(risk.failed),
          received: devices(risk.received),
          rate: percent(risk.received === 0 ? null : risk.failed / risk.received),
        })}
        {halted && ` ${t('rollout.halted')}`}
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
  const translation = useT();
  const { t, count, devices } = translation;
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
  const shown = valid ? String(value) : '?';
  const change = (body: unknown) => send(`/api/updates/rollouts/${releaseId}`, 'POST', body);
  const facts = { trackDevices: trackDevices.last7d, received: health.received };
  const acknowledge =
    risk.kind === 'healthy'
      ? undefined
      : t('rollout.acknowledge', { failed: count(risk.failed), received: devices(risk.received) });
  const widens = (to: number) => halted || to > rollout.percent;
  return (
    <div className="rollout-controls">
      <dl className="facts inline rollout-health" aria-label={t('rollout.healthOf', { id: shortId(releaseId) })}>
        <dt>{t('rollout.failureRate')}</dt>
        <dd>{percent(health.received === 0 ? null : health.failed / health.received)}</dd>
        <dt>{t('rollout.received')}</dt>
        <dd>{count(health.received)}</dd>
        <dt>{t('rollout.failed')}</dt>
        <dd>{count(health.failed)}</dd>
        <dt>{t('rollout.haltRule')}</dt>
        <dd>{haltRuleText(translation, rollout.haltRule)}</dd>
      </dl>
      <div id={warningId} className="risk">
        <RiskWarning risk={risk} halted={halted} />
      </div>
      {may('rollout.change') && (
        <fieldset className="actions" aria-describedby={risk.kind === 'healthy' ? undefined : warningId}>
          <legend className="visually-hidden">{t('rollout.legend', { id: shortId(releaseId) })}</legend>
          <label htmlFor={inputId}>{t('rollout.newShare')}</label>
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
            label={halted ? t('rollout.resume') : t('rollout.changeShare')}
            title={t('rollout.changeTitle')}
            confirmLabel={t('rollout.setTo', { value: shown })}
            disabled={!valid}
            acknowledge={valid && widens(value) ? acknowledge : undefined}
            action={() => change({ action: 'percent', percent: value })}
            onDone={onDone}
          >
            <p>
              {halted
                ? t('rollout.resumeBody', { value: shown })
                : t('rollout.changeBody', { value: shown, from: rollout.percent })}
            </p>
            <RiskWarning risk={risk} halted={halted} />
            {valid && !widens(value) ? (
              <p className="reach">
                <strong>{t('rollout.narrowing')}</strong>
              </p>
            ) : (
              <Reach action={{ kind: 'share', to: valid ? value : rollout.percent }} facts={facts} />
            )}
            <TrackAndRelease track={track} releaseId={releaseId} />
          </ConfirmAction>
          <ConfirmAction
            label={t('rollout.complete')}
            title={t('rollout.completeTitle')}
            confirmLabel={t('rollout.completeConfirm')}
            acknowledge={acknowledge}
            action={() => change({ action: 'complete' })}
            onDone={onDone}
          >
            <p>{t('rollout.completeBody')}</p>
            <RiskWarning risk={risk} halted={halted} />
            <Reach action={{ kind: 'complete' }} facts={facts} />
            <TrackAndRelease track={track} releaseId={releaseId} />
          </ConfirmAction>
          <ConfirmAction
            label={t('rollout.revert')}
            title={t('rollout.revertTitle')}
            confirmLabel={t('rollout.revertConfirm')}
            danger
            action={() => change({ action: 'revert' })}
            onDone={onDone}
          >
            <p>{t('rollout.revertBody')}</p>
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
  const { t } = useT();
  return (
    <ConfirmAction
      label={t('rollback.label')}
      title={t('rollback.title')}
      confirmLabel={t('rollback.confirm')}
      danger
      action={() => send('/api/updates/rollback', 'POST', { ...track, to: releaseId })}
      onDone={onDone}
    >
      <p>{t('rollback.body')}</p>
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
  const { t } = useT();
  return (
    <ConfirmAction
      label={t('embedded.label')}
      title={t('embedded.title')}
      confirmLabel={t('embedded.confirm')}
      danger
      action={() => send('/api/updates/directives', 'POST', { ...track, type: 'rollBackToEmbedded' })}
      onDone={onDone}
    >
      <p>{t('embedded.body')}</p>
      <Reach action={{ kind: 'whole-track' }} facts={{ trackDevices: trackDevices.last7d, received: 0 }} />
      <dl className="facts">
        <dt>{t('common.track')}</dt>
        <dd>{trackLabel(track)}</dd>
        <dt>{t('embedded.replaced')}</dt>
        <dd>{activeReleaseId ? <code>{activeReleaseId}</code> : t('embedded.none')}</dd>
      </dl>
    </ConfirmAction>
  );
}
