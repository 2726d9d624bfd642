import type { ConsoleGroup, ConsoleGroupMember, ConsoleTrackDevices, Platform } from '@ferry/contracts';
import { Fragment, useId, useState } from 'react';
import { send } from '../api.js';
import { trackLabel } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { groupReachOf, type ReachAction } from '../reach.js';
import { rolloutRisk } from '../rollout-risk.js';
import { useMay } from '../session.js';
import { ConfirmAction } from './ConfirmAction.js';

/** A platform of the group with the devices seen on its track: what an estimate is made from. */
export interface GroupPlatform {
  member: ConsoleGroupMember;
  trackDevices: ConsoleTrackDevices;
}

const isOpen = (member: ConsoleGroupMember) =>
  member.rollout?.state === 'running' || member.rollout?.state === 'halted';

/** "iOS · Android": the platforms an action changes, in words. */
export function usePlatformNames(): (platforms: readonly Platform[]) => string {
  const { t } = useT();
  return (platforms) => platforms.map((platform) => t(`platforms.${platform}`)).join(' · ');
}

/** Every platform an action changes (its track and release), and about how many devices it reaches in all. */
function GroupFacts({ action, platforms }: { action: ReachAction | null; platforms: GroupPlatform[] }) {
  const { t, devices } = useT();
  const names = usePlatformNames();
  const facts = platforms.map(({ member, trackDevices }) => ({
    trackDevices: trackDevices.last7d,
    received: member.health.received,
  }));
  const reach = action === null ? null : groupReachOf(action, facts);
  return (
    <>
      {action !== null && (
        <p className="reach">
          <strong>
            {reach === null
              ? t('reach.unknown')
              : reach === 0
                ? t(action.kind === 'revert' ? 'reach.revertNone' : 'reach.shareNone')
                : t('group.reach', {
                    devices: devices(reach),
                    platforms: names(platforms.map((p) => p.member.platform)),
                  })}
          </strong>
        </p>
      )}
      <dl className="facts">
        {platforms.map(({ member }) => (
          <Fragment key={member.releaseId}>
            <dt>{t(`platforms.${member.platform}`)}</dt>
            <dd>
              {trackLabel(member)} · <code>{member.releaseId}</code>
            </dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}

/**
 * A release group's controls, acting on every platform at once through the group endpoints (one
 * transaction: every platform or none; a refusal names the platform). Each dialog names both
 * platforms and the devices reached; widening past reported failures needs them acknowledged.
 */
export function GroupActions({
  group,
  platforms,
  onDone,
}: {
  group: ConsoleGroup;
  platforms: GroupPlatform[];
  onDone: (message: string) => void;
}) {
  const { t, count, devices } = useT();
  const may = useMay();
  const names = usePlatformNames();
  const inputId = useId();
  const [shareText, setShare] = useState('');
  const groupId = group.groupId;
  const active = platforms.filter((p) => p.member.active);
  const open = active.filter((p) => isOpen(p.member));
  const anyHalted = open.some((p) => p.member.rollout?.state === 'halted');
  const anyRunning = open.some((p) => p.member.rollout?.state === 'running');
  const widest = Math.max(0, ...open.map((p) => p.member.rollout?.percent ?? 0));
  const failed = open.reduce((sum, p) => sum + p.member.health.failed, 0);
  const received = open.reduce((sum, p) => sum + p.member.health.received, 0);
  const risky = open.some(
    (p) => p.member.rollout && rolloutRisk({ ...p.member.rollout, haltRule: null }, p.member.health).kind !== 'healthy',
  );
  const acknowledge = risky
    ? t('rollout.acknowledge', { failed: count(failed), received: devices(received) })
    : undefined;
  const value = Number(shareText);
  const valid = shareText.trim() !== '' && Number.isInteger(value) && value >= 1 && value <= 100;
  const shown = valid ? String(value) : '?';
  const change = (body: object) => send('/api/updates/rollouts', 'POST', { groupId, ...body });
  const every = names(platforms.map((p) => p.member.platform));
  const mayRollout = may('rollout.change') && open.length > 0;
  const mayRollback = may('rollback') && active.length > 0;
  const mayEmbedded = may('directive.create') && active.length > 0;
  if (!mayRollout && !mayRollback && !mayEmbedded) return null;
  return (
    <div className="group-actions">
      {mayRollout && (
        <fieldset className="actions">
          <legend>{t('group.rolloutLegend', { platforms: every })}</legend>
          {risky && (
            <p className="warning">
              <strong>{t('rollout.failures')}</strong>{' '}
              {t('group.failures', { failed: count(failed), received: devices(received) })}
            </p>
          )}
          <label htmlFor={inputId}>{t('rollout.newShare')}</label>
          <input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={shareText}
            placeholder="1–100"
            onChange={(event) => setShare(event.target.value)}
            aria-invalid={shareText !== '' && !valid}
          />
          <ConfirmAction
            label={t('group.setShare')}
            title={t('group.changeTitle')}
            confirmLabel={t('rollout.setTo', { value: shown })}
            disabled={!valid}
            acknowledge={valid && (anyHalted || value > widest) ? acknowledge : undefined}
            action={() => change({ action: 'percent', percent: value })}
            onDone={onDone}
          >
            <p>{t('group.changeBody', { value: shown, platforms: every })}</p>
            <GroupFacts action={{ kind: 'share', to: valid ? value : widest }} platforms={open} />
          </ConfirmAction>
          <ConfirmAction
            label={t('rollout.complete')}
            title={t('group.completeTitle')}
            confirmLabel={t('rollout.completeConfirm')}
            acknowledge={acknowledge}
            action={() => change({ action: 'complete' })}
            onDone={onDone}
          >
            <p>{t('group.completeBody', { platforms: every })}</p>
            <GroupFacts action={{ kind: 'complete' }} platforms={open} />
          </ConfirmAction>
          {anyRunning && (
            <ConfirmAction
              label={t('group.halt')}
              title={t('group.haltTitle')}
              confirmLabel={t('group.haltConfirm')}
              danger
              action={() => change({ action: 'halt' })}
              onDone={onDone}
            >
              <p>{t('group.haltBody', { platforms: every })}</p>
              <GroupFacts action={null} platforms={open} />
            </ConfirmAction>
          )}
          {anyHalted && (
            <ConfirmAction
              label={t('rollout.resume')}
              title={t('group.resumeTitle')}
              confirmLabel={t('group.resumeConfirm')}
              acknowledge={acknowledge}
              action={() => change({ action: 'resume' })}
              onDone={onDone}
            >
              <p>{t('group.resumeBody', { platforms: every })}</p>
              <GroupFacts action={{ kind: 'share', to: widest }} platforms={open} />
            </ConfirmAction>
          )}
          <ConfirmAction
            label={t('rollout.revert')}
            title={t('group.revertTitle')}
            confirmLabel={t('rollout.revertConfirm')}
            danger
            action={() => change({ action: 'revert' })}
            onDone={onDone}
          >
            <p>{t('group.revertBody', { platforms: every })}</p>
            <GroupFacts action={{ kind: 'revert' }} platforms={open} />
          </ConfirmAction>
        </fieldset>
      )}
      {(mayRollback || mayEmbedded) && (
        <div className="actions">
          {mayRollback && (
            <ConfirmAction
              label={t('group.rollback')}
              title={t('group.rollbackTitle')}
              confirmLabel={t('rollback.confirm')}
              danger
              action={() => send('/api/updates/rollback', 'POST', { groupId })}
              onDone={onDone}
            >
              <p>{t('group.rollbackBody', { platforms: every })}</p>
              <GroupFacts action={{ kind: 'whole-track' }} platforms={active} />
            </ConfirmAction>
          )}
          {mayEmbedded && (
            <ConfirmAction
              label={t('group.embedded')}
              title={t('group.embeddedTitle')}
              confirmLabel={t('embedded.confirm')}
              danger
              action={() => send('/api/updates/directives', 'POST', { groupId, type: 'rollBackToEmbedded' })}
              onDone={onDone}
            >
              <p>{t('group.embeddedBody', { platforms: every })}</p>
              <GroupFacts action={{ kind: 'whole-track' }} platforms={active} />
            </ConfirmAction>
          )}
        </div>
      )}
    </div>
  );
}
