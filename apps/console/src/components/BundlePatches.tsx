import type { BundlePatch } from '@ferry/contracts';
import { Trans } from 'react-i18next';
import { percent, share, shortId } from '../format.js';
import { CONSOLE_NAMESPACE, type Translate } from '../i18n/catalogue.js';
import { useT } from '../i18n/use-t.js';
import { href } from '../router.js';

/** What a patch's state means for devices: a short badge, and why when it is not offered. */
export function patchState(
  t: Translate,
  patch: BundlePatch,
  maxRatio: number,
): { label: string; tone: string; reason?: string } {
  switch (patch.state) {
    case 'ready':
      return { label: t('patches.ready'), tone: 'ok' };
    case 'pending':
      return { label: t('patches.pending'), tone: 'state-running' };
    case 'larger':
      return {
        label: t('patches.larger'),
        tone: 'state-superseded',
        reason: t('patches.largerReason', { share: share(maxRatio) }),
      };
    case 'failed':
      return { label: t('patches.failed'), tone: 'bad', reason: t('patches.failedReason') };
  }
}

/** The patch's bytes as a share of the full download's; null until both are known. */
export const patchShare = (patch: BundlePatch): number | null =>
  patch.bytes === null || patch.fullBytes === null || patch.fullBytes === 0 ? null : patch.bytes / patch.fullBytes;

/** A one-line change gives a patch of a few hundred bytes: it reads as under 0.1 %, never as 0. */
const sharePercent = (ratio: number | null): string =>
  ratio !== null && ratio > 0 && ratio < 0.0005 ? '< 0.1 %' : percent(ratio);

/**
 * The release page's bundle patches: one row per base a device may run (an earlier release of the
 * track, or a build's embedded bundle), with the patch's size against the full brotli download.
 */
export function BundlePatches({ patches, maxRatio }: { patches: BundlePatch[]; maxRatio: number }) {
  const { t, bytes } = useT();
  const size = (value: number | null): string => (value === null ? '—' : bytes(value));
  const columns = [
    t('patches.from'),
    t('patches.state'),
    t('patches.patch'),
    t('patches.full'),
    t('patches.share'),
  ] as const;
  return (
    <>
      <h2 id="patches-title">{t('patches.title')}</h2>
      {patches.length === 0 ? (
        <p>
          <Trans ns={CONSOLE_NAMESPACE} i18nKey="patches.none" components={[<code key="command" />]} />
        </p>
      ) : (
        <>
          <p className="sub">{t('patches.sub')}</p>
          <table className="data patches" aria-labelledby="patches-title">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {patches.map((patch) => {
                const state = patchState(t, patch, maxRatio);
                return (
                  <tr key={`${patch.base.kind} ${patch.base.updateId}`} data-patch-base={patch.base.updateId}>
                    <td data-label={columns[0]}>
                      {patch.base.kind === 'release' ? (
                        <>
                          {t('patches.fromRelease')}{' '}
                          <a href={href.release(patch.base.updateId)}>{shortId(patch.base.updateId)}</a>
                        </>
                      ) : (
                        <>
                          {t('patches.fromEmbedded')}{' '}
                          <code title={patch.base.updateId}>{shortId(patch.base.updateId)}</code>
                        </>
                      )}
                    </td>
                    <td data-label={columns[1]}>
                      <span className={`badge ${state.tone}`}>{state.label}</span>
                      {state.reason && <span className="reason"> ({state.reason})</span>}
                    </td>
                    <td data-label={columns[2]}>{size(patch.bytes)}</td>
                    <td data-label={columns[3]}>{size(patch.fullBytes)}</td>
                    <td data-label={columns[4]}>{sharePercent(patchShare(patch))}</td>
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
