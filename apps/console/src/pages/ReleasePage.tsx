import { ConsoleReleaseDetail } from '@ferry/contracts';
import { getJson } from '../api.js';
import { BarChart } from '../components/BarChart.js';
import { BundlePatches } from '../components/BundlePatches.js';
import { CopyButton } from '../components/CopyButton.js';
import { Loading } from '../components/Loading.js';
import { Time } from '../components/Time.js';
import { haltRuleText, RolloutControls } from '../components/TrackActions.js';
import { bytes, count, percent, shortFingerprint, shortId, trackLabel, updatePolicy } from '../format.js';
import { useLiveVersion } from '../live.js';
import { href } from '../router.js';
import { useResource } from '../use-resource.js';

/** One release: assets and sizes, bundle patches, the signed manifests and whether they verify, adoption and failures. */
export function ReleasePage({ releaseId, onDone }: { releaseId: string; onDone: (message: string) => void }) {
  const live = useLiveVersion();
  const detail = useResource(
    () => getJson(`/api/console/releases/${encodeURIComponent(releaseId)}`, ConsoleReleaseDetail),
    `${releaseId} ${live}`,
  );
  const release = detail.data;
  if (detail.error) {
    return (
      <section aria-labelledby="release-title">
        <h1 id="release-title">Release {shortId(releaseId)}</h1>
        <p role="alert" className="error">
          Could not load the release: {detail.error.message}
        </p>
      </section>
    );
  }
  if (!release) return <Loading label="Loading the release…" />;
  const failureRate = release.health.received === 0 ? null : release.health.failed / release.health.received;
  return (
    <section aria-labelledby="release-title">
      <p className="crumbs">
        <a href={href.tracks()}>Tracks</a> / <a href={href.track(release)}>{trackLabel(release)}</a> /
      </p>
      <h1 id="release-title">Release {shortId(release.id)}</h1>
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code>{release.id}</code>
        </dd>
        <dt>Message</dt>
        <dd>{release.metadata.message ?? '—'}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={release.createdAt} />
        </dd>
        <dt>Commit · branch · actor</dt>
        <dd>
          {release.metadata.commit ?? '—'} · {release.metadata.branch ?? '—'} · {release.metadata.actor ?? '—'}
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          {release.metadata.fingerprint ? (
            <>
              <code title={release.metadata.fingerprint}>{shortFingerprint(release.metadata.fingerprint)}</code>{' '}
              <CopyButton value={release.metadata.fingerprint} label="fingerprint" />
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Update policy</dt>
        <dd>{updatePolicy(release.updatePolicy)}</dd>
        <dt>Rollout</dt>
        <dd>
          {release.rollout ? (
            <span
              className={`badge state-${release.rollout.state}`}
            >{`${release.rollout.state} ${release.rollout.percent} %`}</span>
          ) : (
            'every device'
          )}
          {release.rollout?.reason && <span className="reason"> {release.rollout.reason}</span>}
        </dd>
        {release.rollout && (
          <>
            <dt>Halt rule</dt>
            <dd>{haltRuleText(release.rollout.haltRule)}</dd>
          </>
        )}
        {release.metadata.rolledBackFrom && (
          <>
            <dt>Rollback of</dt>
            <dd>
              <a href={href.release(release.metadata.rolledBackFrom)}>{shortId(release.metadata.rolledBackFrom)}</a>
            </dd>
          </>
        )}
      </dl>
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

      <h2>Devices</h2>
      <dl className="facts inline">
        <dt>Adoption 24 h</dt>
        <dd>{count(release.adoption.last24h)}</dd>
        <dt>Adoption 7 days</dt>
        <dd>{count(release.adoption.last7d)}</dd>
        <dt>Received</dt>
        <dd>{count(release.health.received)}</dd>
        <dt>Failed</dt>
        <dd>{count(release.health.failed)}</dd>
        <dt>Failure rate</dt>
        <dd>{percent(failureRate)}</dd>
        <dt>Devices on the track, 7 days</dt>
        <dd>{count(release.trackDevices.last7d)}</dd>
      </dl>
      <div className="charts">
        <BarChart title="New devices" series={release.daily.adopted} tone="good" />
        <BarChart title="Failures" series={release.daily.failed} tone="bad" />
      </div>

      <h2>Assets</h2>
      <div>
        <table className="data assets">
          <thead>
            <tr>
              <th scope="col">Asset</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Hash</th>
            </tr>
          </thead>
          <tbody>
            {release.assets.map((asset) => (
              <tr key={`${asset.hash}${asset.launch}`}>
                <td data-label="Asset">{asset.launch ? 'launch bundle' : (asset.key ?? 'asset')}</td>
                <td data-label="Type">{asset.contentType ?? asset.fileExtension ?? '—'}</td>
                <td data-label="Size">{bytes(asset.size)}</td>
                <td data-label="Hash">
                  <code>{asset.hash.slice(0, 12)}…</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Total: {bytes(release.assets.reduce((sum, asset) => sum + (asset.size ?? 0), 0))} in {release.assets.length}{' '}
        files
      </p>

      <BundlePatches patches={release.patches} maxRatio={release.patchMaxRatio} />

      <h2>Manifest</h2>
      {release.manifests.length === 0 && <p>No signed manifest is stored for this release.</p>}
      {release.manifests.map((manifest) => (
        <details key={manifest.namespace} className="manifest">
          <summary>
            {manifest.namespace} namespace ·{' '}
            {manifest.verifies ? (
              <span className="badge ok">signature verifies</span>
            ) : (
              <span className="badge bad">signature does not verify with the configured certificate</span>
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
