import type { BundlePatch } from '@ferry/contracts';
import { bytes, percent, share, shortId } from '../format.js';
import { href } from '../router.js';

/** What a patch's state means for devices: a short badge, and why when it is not offered. */
export function patchState(patch: BundlePatch, maxRatio: number): { label: string; tone: string; reason?: string } {
  switch (patch.state) {
    case 'ready':
      return { label: 'ready', tone: 'ok' };
    case 'pending':
      return { label: 'being made', tone: 'state-running' };
    case 'larger':
      return {
        label: 'not offered',
        tone: 'state-superseded',
        reason: `larger than ${share(maxRatio)} of the full download`,
      };
    case 'failed':
      return { label: 'failed', tone: 'bad', reason: 'devices get the full bundle; the server log says why' };
  }
}

/** The patch's bytes as a share of the full download's; null until both are known. */
export const patchShare = (patch: BundlePatch): number | null =>
  patch.bytes === null || patch.fullBytes === null || patch.fullBytes === 0 ? null : patch.bytes / patch.fullBytes;

const size = (value: number | null): string => (value === null ? '—' : bytes(value));

/** A one-line change gives a patch of a few hundred bytes: it reads as under 0.1 %, never as 0. */
const sharePercent = (ratio: number | null): string =>
  ratio !== null && ratio > 0 && ratio < 0.0005 ? '< 0.1 %' : percent(ratio);

/**
 * The release page's bundle patches: one row per base a device may run (an earlier release of the
 * track, or a build's embedded bundle), with the patch's size against the full brotli download.
 */
export function BundlePatches({ patches, maxRatio }: { patches: BundlePatch[]; maxRatio: number }) {
  return (
    <>
      <h2 id="patches-title">Bundle patches</h2>
      {patches.length === 0 ? (
        <p>
          No patches to this launch bundle. A track’s first release has none unless a build’s embedded bundle is
          registered (<code>ferry embedded upload</code>).
        </p>
      ) : (
        <>
          <p className="sub">
            A device running one of these updates downloads the patch instead of the whole launch bundle, once it is
            ready.
          </p>
          <table className="data patches" aria-labelledby="patches-title">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">State</th>
                <th scope="col">Patch</th>
                <th scope="col">Full download (brotli)</th>
                <th scope="col">Patch ÷ full</th>
              </tr>
            </thead>
            <tbody>
              {patches.map((patch) => {
                const state = patchState(patch, maxRatio);
                return (
                  <tr key={`${patch.base.kind} ${patch.base.updateId}`} data-patch-base={patch.base.updateId}>
                    <td data-label="From">
                      {patch.base.kind === 'release' ? (
                        <>
                          release <a href={href.release(patch.base.updateId)}>{shortId(patch.base.updateId)}</a>
                        </>
                      ) : (
                        <>
                          embedded build <code title={patch.base.updateId}>{shortId(patch.base.updateId)}</code>
                        </>
                      )}
                    </td>
                    <td data-label="State">
                      <span className={`badge ${state.tone}`}>{state.label}</span>
                      {state.reason && <span className="reason"> ({state.reason})</span>}
                    </td>
                    <td data-label="Patch">{size(patch.bytes)}</td>
                    <td data-label="Full download (brotli)">{size(patch.fullBytes)}</td>
                    <td data-label="Patch ÷ full">{sharePercent(patchShare(patch))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}
