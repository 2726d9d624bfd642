import { CHANNELS, type Channel, PromoteResponse } from '@ferry/contracts';
import { useId, useState } from 'react';
import { send } from '../api.js';
import { shortId, trackLabel } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { href } from '../router.js';
import { ConfirmAction } from './ConfirmAction.js';

/** What is promoted: one release, or every platform of a release group (all or none). */
export type PromoteSource = { releaseId: string } | { groupId: string };

/**
 * Republish a release or a release group to another channel (POST /api/updates/promote), through
 * the native-change guard as a publish to that channel is: a refusal (409) is shown in the dialog in
 * the server's words. Once done, the new releases are listed with links.
 */
export function PromoteAction({
  source,
  fromChannel,
  platforms,
  onDone,
}: {
  source: PromoteSource;
  fromChannel: Channel;
  /** The platforms the promotion copies, as the dialog names them. */
  platforms: string;
  onDone: (message: string) => void;
}) {
  const { t } = useT();
  const targets = CHANNELS.filter((channel) => channel !== fromChannel);
  const [toChannel, setChannel] = useState<Channel>(targets.at(-1) ?? fromChannel);
  const [shareText, setShare] = useState('');
  const [promoted, setPromoted] = useState<PromoteResponse>();
  const channelId = useId();
  const shareId = useId();
  const value = Number(shareText);
  const everyDevice = shareText.trim() === '';
  const valid = everyDevice || (Number.isInteger(value) && value >= 1 && value <= 100);
  const promote = async () => {
    const body = { ...source, toChannel, ...(everyDevice ? {} : { rollout: { percent: value } }) };
    setPromoted(PromoteResponse.parse(await send('/api/updates/promote', 'POST', body)));
  };
  if (targets.length === 0) return null;
  return (
    <div className="promote">
      <ConfirmAction
        label={t('promote.label')}
        title={t('promote.title')}
        confirmLabel={t('promote.confirm', { channel: toChannel })}
        confirmDisabled={!valid}
        action={promote}
        onDone={onDone}
      >
        <p>{t('promote.body', { from: fromChannel, platforms })}</p>
        <p className="field">
          <label htmlFor={channelId}>{t('promote.target')}</label>
          <select id={channelId} value={toChannel} onChange={(event) => setChannel(event.target.value as Channel)}>
            {targets.map((channel) => (
              <option key={channel} value={channel}>
                {channel}
              </option>
            ))}
          </select>
        </p>
        <p className="field">
          <label htmlFor={shareId}>{t('promote.share')}</label>
          <input
            id={shareId}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            value={shareText}
            placeholder="1–100"
            aria-invalid={!valid}
            onChange={(event) => setShare(event.target.value)}
          />
        </p>
        <p className="sub">
          {everyDevice || !valid ? t('promote.everyDevice') : t('promote.shareOf', { value: String(value) })}
        </p>
        <p className="sub">{t('promote.guard')}</p>
      </ConfirmAction>
      {promoted && (
        <div className="promoted" role="status">
          <p>
            <strong>{t('promote.done', { channel: promoted.promotions[0]?.release.channel ?? toChannel })}</strong>{' '}
            {promoted.promotions.length > 1 && (
              <a href={href.group(promoted.groupId)}>{t('promote.newGroup', { id: shortId(promoted.groupId) })}</a>
            )}
          </p>
          <ul>
            {promoted.promotions.map(({ release }) => (
              <li key={release.id} data-promoted={release.id}>
                <a href={href.release(release.id)}>
                  <code>{shortId(release.id)}</code>
                </a>{' '}
                {trackLabel(release)}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
