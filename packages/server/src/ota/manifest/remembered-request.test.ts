import type { Track } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { manifestAnswer } from './manifest-answer.js';
import { ManifestCache, type TrackEntry } from './manifest-cache.js';
import { type ManifestOutcome, outcomeLabel } from './manifest-outcome.js';
import { type SignedManifest, signedManifestOf } from './manifest-response.js';
import { RememberedRequest } from './remembered-request.js';
import { trackKey } from './track-key.js';

const signed = (id: string): SignedManifest =>
  signedManifestOf(id, {
    namespace: 'expo',
    certificate: 'test',
    body: `{"id":"${id}"}`,
    signature: 'sig',
    assetBaseUrl: null,
  });
const track: Track = { channel: 'production', platform: 'ios', runtimeVersion: '1' };
const empty: TrackEntry = { head: undefined, rollout: undefined, fallback: undefined };

/** A remembered request holding a slot of a fresh cache, as resolveCached leaves it. */
async function holding() {
  const cache = new ManifestCache({ load: async () => empty, ttlMs: 60_000 });
  await cache.entry(track);
  const remembered = new RememberedRequest('expo', track, trackKey(track));
  cache.keep(remembered, cache.slot(trackKey(track))!, 0);
  return { cache, remembered };
}

describe('RememberedRequest', () => {
  const a: ManifestOutcome = { kind: 'update', signed: signed('a') };
  const b: ManifestOutcome = { kind: 'update', signed: signed('b') };
  const directive: ManifestOutcome = { kind: 'directive', signed: signed('rollBackToEmbedded') };
  const fallback: ManifestOutcome = { kind: 'update', signed: signed('a'), fallback: true };
  const upToDate: ManifestOutcome = { kind: 'no-update', reason: 'up-to-date' };

  it('answerTo is manifestAnswer of the outcome and structure it is given, made again when either changes', async () => {
    const { remembered } = await holding();
    const cases = [
      [a, 'multipart'],
      [a, 'multipart'],
      [a, 'json'],
      [b, 'json'],
      [a, 'multipart'],
      [directive, 'multipart'],
      // A directive has no JSON form: no answer (the protocol's 406), as manifestAnswer says.
      [directive, 'json'],
    ] as const;
    for (const [outcome, format] of cases) {
      expect(remembered.answerTo(outcome, format)).toBe(manifestAnswer(outcome, format, 'expo'));
    }
  });

  it('labelOf is outcomeLabel, for the outcome last answered and for any other', async () => {
    const { remembered } = await holding();
    for (const outcome of [a, fallback, directive, upToDate, a]) {
      expect(remembered.labelOf(outcome)).toBe(outcomeLabel(outcome));
      remembered.answerTo(outcome, 'multipart');
      expect(remembered.labelOf(outcome)).toBe(outcomeLabel(outcome));
      expect(remembered.labelOf(b)).toBe('update');
    }
  });

  it('carries the request it was parsed from, its platform and channel', async () => {
    const { remembered } = await holding();
    expect(remembered).toMatchObject({ ok: true, ns: 'expo', request: track, platform: 'ios', channel: 'production' });
  });

  it('lets go of its outcome and answer when the cache drops the entry they came from', async () => {
    const { cache, remembered } = await holding();
    remembered.outcome = a;
    const answer = remembered.answerTo(a, 'multipart');
    expect(answer).toBeDefined();
    cache.invalidate(track);
    expect(remembered.slot).toBeUndefined();
    expect(remembered.outcome).toBeUndefined();
    // Nothing kept without a slot: each answer is made (or found on the signed manifest) anew.
    expect(remembered.answerTo(b, 'multipart')).toBe(manifestAnswer(b, 'multipart', 'expo'));
  });
});
