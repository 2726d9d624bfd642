import { ConsoleReleaseDetail } from '@ferry/contracts';
import { getJson } from '../api.js';
import { BarChart } from '../components/BarChart.js';
import { BundlePatches } from '../components/BundlePatches.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { PromoteAction } from '../components/PromoteAction.js';
import { Time } from '../components/Time.js';
import { haltRuleText, RolloutControls } from '../components/TrackActions.js';
import { percent, shortFingerprint, shortId, trackLabel } from '../format.js';
import { useT } from '../i18n/use-t.js';
import { useLiveVersion } from '../live.js';
import { refusalLine } from '../refusal.js';
import { href } from '../router.js';
import { useMay } from '../session.js';
import { useResource } from '../use-resource.js';

/** One release: assets and sizes, bundle patches, the signed manifests and whether they verify, adoption and failures. */
export function ReleasePage({ releaseId, onDone }: { releaseId: string; onDone: (message: string) => void }) {
  const translation = useT();
  const { t, count, bytes, policy } = translation;
  const may = useMay();
  const live = useLiveVersion();
  const detail = useResource(
    () => getJson(`/api/console/releases/${encodeURIComponent(releaseId)}`, ConsoleReleaseDetail),
    `${releaseId} ${live}`,
  );
  const release = detail.data;
  if (detail.error) {
    return (
      <section aria-labelledby="release-title">
        <h1 id="release-title">{t('release.title', { id: shortId(releaseId) })}</h1>
        <p role="alert" className="error">
          {t('errors.release', { reason: refusalLine(t, detail.error) })}
        </p>
      </section>
    );
  }
  if (!release) return <Loading label={t('release.loading')} />;
  const failureRate = release.health.received === 0 ? null : release.health.failed / release.health.received;
  return (
    <section aria-labelledby="release-title">
      <p className="crumbs">
        <a href={href.tracks()}>{t('nav.tracks')}</a> / <a href={href.track(release)}>{trackLabel(release)}</a> /
      </p>
      <h1 id="release-title">{t('release.title', { id: shortId(release.id) })}</h1>
      <dl className="facts">
        <dt>{t('release.id')}</dt>
        <dd>
          <code>{release.id}</code>
        </dd>
        <dt>{t('release.message')}</dt>
        <dd>{release.metadata.message ?? '—'}</dd>
        <dt>{t('release.created')}</dt>
        <dd>
          <Time iso={release.createdAt} />
        </dd>
        <dt>{t('release.commitBranchActor')}</dt>
        <dd>
          {release.metadata.commit ?? '—'} · {release.metadata.branch ?? '—'} · {release.metadata.actor ?? '—'}
        </dd>
        <dt>{t('release.fingerprint')}</dt>
        <dd>
          {release.metadata.fingerprint ? (
            <>
              <code title={release.metadata.fingerprint}>{shortFingerprint(release.metadata.fingerprint)}</code>{' '}
              <CopyButton value={release.metadata.fingerprint} label={t('release.fingerprint')} />
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>{t('release.updatePolicy')}</dt>
        <dd>{policy(release.updatePolicy)}</dd>
        <dt>{t('release.rollout')}</dt>
        <dd>
          {release.rollout ? (
            <span
              className={`badge state-${release.rollout.state}`}
            >{`${t(`states.${release.rollout.state}`)} ${release.rollout.percent} %`}</span>
          ) : (
            t('release.everyDevice')
          )}
          {release.rollout?.reason && <span className="reason"> {release.rollout.reason}</span>}
        </dd>
        {release.rollout && (
          <>
            <dt>{t('release.haltRule')}</dt>
            <dd>{haltRuleText(translation, release.rollout.haltRule)}</dd>
          </>
        )}
        {release.groupId && (
          <>
            <dt>{t('release.group')}</dt>
            <dd>
              <a href={href.group(release.groupId)}>{t('track.groupLink', { id: shortId(release.groupId) })}</a>
            </dd>
          </>
        )}
        {release.metadata.rolledBackFrom && (
          <>
            <dt>{t('release.rollbackOf')}</dt>
            <dd>
              <a href={href.release(release.metadata.rolledBackFrom)}>{shortId(release.metadata.rolledBackFrom)}</a>
            </dd>
          </>
        )}
      </dl>
      {may('promote') && (
        <PromoteAction
          key={release.id}
          source={{ releaseId: release.id }}
          fromChannel={release.channel}
          platforms={t(`platforms.${release.platform}`)}
          onDone={onDone}
        />
      )}
      {release.rollout && (release.rollout.state === 'running' || release.rollout.state === 'halted') && (
        <RolloutControls
          track={release}
          releaseId={release.id}
          rollout={release.rollout}
          health={release.health}
          trackDevices={release.trackDevices}
          onDone={(message) => {
            onDone(message);
            detail.reload();
          }}
        />
      )}

      <h2>{t('release.devices')}</h2>
      <dl className="facts inline">
        <dt>{t('release.adoption24h')}</dt>
        <dd>{count(release.adoption.last24h)}</dd>
        <dt>{t('release.adoption7d')}</dt>
        <dd>{count(release.adoption.last7d)}</dd>
        <dt>{t('release.received')}</dt>
        <dd>{count(release.health.received)}</dd>
        <dt>{t('release.failed')}</dt>
        <dd>{count(release.health.failed)}</dd>
        <dt>{t('release.failureRate')}</dt>
        <dd>{percent(failureRate)}</dd>
        <dt>{t('release.trackDevices')}</dt>
        <dd>{count(release.trackDevices.last7d)}</dd>
      </dl>
      <div className="charts">
        <BarChart title={t('release.newDevices')} series={release.daily.adopted} tone="good" />
        <BarChart title={t('release.failures')} series={release.daily.failed} tone="bad" />
      </div>

      <h2>{t('release.assets')}</h2>
      <div>
        <table className="data assets">
          <thead>
            <tr>
              <th scope="col">{t('release.asset')}</th>
              <th scope="col">{t('release.type')}</th>
              <th scope="col">{t('release.size')}</th>
              <th scope="col">{t('release.hash')}</th>
            </tr>
          </thead>
          <tbody>
            {release.assets.map((asset) => (
              <tr key={`${asset.hash}${asset.launch}`}>
                <td data-label={t('release.asset')}>
                  {asset.launch ? t('release.launchBundle') : (asset.key ?? t('release.asset'))}
                </td>
                <td data-label={t('release.type')}>{asset.contentType ?? asset.fileExtension ?? '—'}</td>
                <td data-label={t('release.size')}>{bytes(asset.size)}</td>
                <td data-label={t('release.hash')}>
                  <code>{asset.hash.slice(0, 12)}…</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        {t('release.total', {
          size: bytes(release.assets.reduce((sum, asset) => sum + (asset.size ?? 0), 0)),
          n: count(release.assets.length),
        })}
      </p>

      <BundlePatches patches={release.patches} maxRatio={release.patchMaxRatio} />

      <h2>{t('release.manifest')}</h2>
      {release.manifests.length === 0 && <p>{t('release.noManifest')}</p>}
      {release.manifests.map((manifest) => (
        <details key={manifest.namespace} className="manifest">
          <summary>
            {t('release.namespace', { namespace: manifest.namespace })} ·{' '}
            {manifest.verifies ? (
              <span className="badge ok">{t('release.verifies')}</span>
            ) : (
              <span className="badge bad">{t('release.doesNotVerify')}</span>
            )}
          </summary>
          <pre>{JSON.stringify(JSON.parse(manifest.body), null, 2)}</pre>
          <p className="sub">
            <code>{manifest.namespace}-signature</code>: <code className="wrap">{manifest.signature}</code>
          </p>
        </details>
      ))}
    </section>
  );
}
