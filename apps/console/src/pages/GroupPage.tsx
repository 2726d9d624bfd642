import { ConsoleGroup, ConsoleHistoryResponse } from '@ferry/contracts';
import { getJson } from '../api.js';
import { GroupActions, type GroupPlatform, usePlatformNames } from '../components/GroupActions.js';
import { Loading } from '../components/Loading.js';
import { PromoteAction } from '../components/PromoteAction.js';
import { Time } from '../components/Time.js';
import { percent, shortId, trackLabel } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { useLiveVersion } from '../live.js';
import { refusalLine } from '../refusal.js';
import { href } from '../router.js';
import { useMay } from '../session.js';
import { useResource } from '../use-resource.js';

/** The group, and the devices seen on each of its platforms' tracks (what the dialogs estimate from). */
async function loadGroup(groupId: string): Promise<{ group: ConsoleGroup; platforms: GroupPlatform[] }> {
  const group = await getJson(`/api/console/groups/${encodeURIComponent(groupId)}`, ConsoleGroup);
  const platforms = await Promise.all(
    group.releases.map(async (member) => {
      const { channel, platform, runtimeVersion } = member;
      const query = new URLSearchParams({ channel, platform, runtimeVersion });
      const history = await getJson(`/api/console/history?${query}`, ConsoleHistoryResponse);
      return { member, trackDevices: history.devices };
    }),
  );
  return { group, platforms };
}

/**
 * One publish of every platform (a release group): each platform's release, rollout, adoption and
 * health, with the actions that change all of them at once and the promotion to another channel.
 */
export function GroupPage({ groupId, onDone }: { groupId: string; onDone: (message: string) => void }) {
  const { t, count } = useT();
  const may = useMay();
  const names = usePlatformNames();
  const live = useLiveVersion();
  const loaded = useResource(() => loadGroup(groupId), `${groupId} ${live}`);
  const done = (message: string) => {
    onDone(message);
    loaded.reload();
  };
  const title = <h1 id="group-title">{t('group.title', { id: shortId(groupId) })}</h1>;
  if (loaded.error) {
    return (
      <section aria-labelledby="group-title">
        {title}
        <p role="alert" className="error">
          {t('errors.group', { reason: refusalLine(t, loaded.error) })}
        </p>
      </section>
    );
  }
  // The previous group's answer stays on screen only while the same group is read again.
  if (!loaded.data || loaded.data.group.groupId !== groupId) return <Loading label={t('group.loading')} />;
  const { group, platforms } = loaded.data;
  return (
    <section aria-labelledby="group-title">
      <p className="crumbs">
        <a href={href.tracks()}>{t('nav.tracks')}</a> /
      </p>
      {title}
      <p className="platform-badges">
        {group.releases.map((member) => (
          <span key={member.platform} className="badge platform">
            {t(`platforms.${member.platform}`)}
          </span>
        ))}
      </p>
      <dl className="facts">
        <dt>{t('group.id')}</dt>
        <dd>
          <code>{group.groupId}</code>
        </dd>
        <dt>{t('common.channel')}</dt>
        <dd>{group.channel}</dd>
        <dt>{t('release.message')}</dt>
        <dd>{group.metadata.message ?? '—'}</dd>
        <dt>{t('release.created')}</dt>
        <dd>
          <Time iso={group.createdAt} />
        </dd>
      </dl>
      <h2>{t('group.platforms')}</h2>
      <ul className="group-members">
        {group.releases.map((member) => (
          <li key={member.releaseId} className="entry" data-platform={member.platform}>
            <div className="entry-head">
              <strong>{t(`platforms.${member.platform}`)}</strong>
              <a
                href={href.release(member.releaseId)}
                aria-label={t('group.releaseOf', {
                  platform: t(`platforms.${member.platform}`),
                  id: shortId(member.releaseId),
                })}
              >
                <code>{shortId(member.releaseId)}</code>
              </a>
              {member.rollout ? (
                <span className={`badge state-${member.rollout.state}`}>
                  {`${t(`states.${member.rollout.state}`)} ${member.rollout.percent} %`}
                </span>
              ) : (
                <span className="badge">{t('release.everyDevice')}</span>
              )}
              {member.active ? (
                <span className="badge active">{t('track.active')}</span>
              ) : (
                <span className="badge">{t('group.replaced')}</span>
              )}
            </div>
            <dl className="facts inline">
              <dt>{t('common.track')}</dt>
              <dd>
                <a href={href.track(member)}>{trackLabel(member)}</a>
              </dd>
              <dt>{t('group.adoption')}</dt>
              <dd>{count(member.adoption.last24h)}</dd>
              <dt>{t('track.receivedFailed')}</dt>
              <dd>
                {count(member.health.received)} · {count(member.health.failed)}
              </dd>
              <dt>{t('rollout.failureRate')}</dt>
              <dd>{percent(member.health.received === 0 ? null : member.health.failed / member.health.received)}</dd>
            </dl>
            {member.rollout?.reason && <p className="reason">{member.rollout.reason}</p>}
          </li>
        ))}
      </ul>
      <GroupActions group={group} platforms={platforms} onDone={done} />
      {may('promote') && (
        <PromoteAction
          key={group.groupId}
          source={{ groupId: group.groupId }}
          fromChannel={group.channel}
          platforms={names(group.releases.map((member) => member.platform))}
          onDone={done}
        />
      )}
    </section>
  );
}
