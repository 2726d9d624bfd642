import { describe, expect, it, vi } from 'vitest';
import { rolloutBucket } from '../rollout/rollout-bucket.js';
import type { ManifestAnswer } from './manifest-answer.js';
import { decideManifest, type ServedEntry, type TrackEntry } from './manifest-decision.js';
import type { SignedManifest } from './manifest-response.js';

const ID = '5b0c4f8e-3d7a-4b8e-9f59-1c2d3e4f5a6b';
const EMBEDDED = '0f0e0d0c-0b0a-4909-8807-060504030201';
const OTHER = '00000000-0000-0000-0000-000000000000';
const release = { kind: 'release', id: ID } as const;
const directive = { kind: 'directive', id: '11111111-2222-4333-8444-555555555555' } as const;

// The spec's manifest rules 1–3 and the directives (issue 18) as a table; the entry is the one
// the device gets (chooseEntry decides it).
describe('decideManifest', () => {
  it.each([
    ['no release for the track', undefined, undefined, undefined, 'no-release'],
    ['no release, whatever the app runs', undefined, ID, EMBEDDED, 'no-release'],
    ['the app runs the newest release', release, ID, EMBEDDED, 'up-to-date'],
    ['the same id in upper case', release, ID.toUpperCase(), undefined, 'up-to-date'],
    ['the app runs something else', release, OTHER, EMBEDDED, 'update'],
    ['the app sent no current id', release, undefined, undefined, 'update'],
    ['roll back to embedded, the app runs an update', directive, ID, EMBEDDED, 'directive'],
    ['roll back to embedded, the app runs its embedded update', directive, EMBEDDED, EMBEDDED, 'up-to-date'],
    ['…in another case', directive, EMBEDDED.toUpperCase(), EMBEDDED, 'up-to-date'],
    ['roll back to embedded, no embedded id sent', directive, ID, undefined, 'directive'],
    ['roll back to embedded, no ids at all', directive, undefined, undefined, 'directive'],
  ] as const)('%s → %s', (_name, entry, current, embedded, expected) => {
    expect(decideManifest(entry, current, embedded)).toBe(expected);
  });
});

const HEAD = '0a0a0a0a-0000-4000-8000-00000000000a';
const FALLBACK = '0b0b0b0b-0000-4000-8000-00000000000b';
const devices = Array.from({ length: 100 }, (_, i) => `device-${i}`);
const inside = devices.find((id) => rolloutBucket(id, HEAD) < 50)!;
const outside = devices.find((id) => rolloutBucket(id, HEAD) >= 50)!;

/**
 * The modules under test loaded afresh, and answers made with them: their module-level tables are
 * then made inside the test, so mutation testing sees them as the test's own.
 */
async function fixtures() {
  vi.resetModules();
  const { entryAnswers, NO_RELEASE, OUTSIDE_ROLLOUT, upToDateAnswers } = await import('./manifest-answer.js');
  const { manifestAnswer } = await import('./manifest-decision.js');
  const { signedManifestOf } = await import('./manifest-response.js');
  const signed = (id: string, ns: 'ota' | 'expo'): SignedManifest =>
    signedManifestOf(id, {
      namespace: ns,
      certificate: 'test',
      body: `{"id":"${id}"}`,
      signature: `sig="${id}"`,
      assetBaseUrl: null,
    });
  const served = (kind: 'release' | 'directive', id: string, fallback = false): ServedEntry => ({
    kind,
    id,
    answers: entryAnswers({ ota: signed(id, 'ota'), expo: signed(id, 'expo') }, kind, fallback),
  });
  const upToDate = upToDateAnswers(
    signedManifestOf(
      'noUpdateAvailable',
      { namespace: 'expo', certificate: 'test', body: '{}', signature: 's', assetBaseUrl: null },
      'directive',
    ),
  );
  const tracks: Record<string, TrackEntry> = {
    empty: { head: undefined, rollout: undefined, fallback: undefined },
    release: { head: served('release', HEAD), rollout: undefined, fallback: undefined },
    directive: { head: served('directive', HEAD), rollout: undefined, fallback: undefined },
    'rollout, first release': {
      head: served('release', HEAD),
      rollout: { releaseId: HEAD, percent: 50, state: 'running' },
      fallback: undefined,
    },
    rollout: {
      head: served('release', HEAD),
      rollout: { releaseId: HEAD, percent: 50, state: 'running' },
      fallback: served('release', FALLBACK, true),
    },
  };
  return { signed, tracks, upToDate, manifestAnswer, NO_RELEASE, OUTSIDE_ROLLOUT };
}

/** What a device is answered, as the status, the metrics label and the id in the body. */
const what = (answer: ManifestAnswer | undefined) =>
  answer &&
  `${answer.status} ${answer.label}${answer.noRelease ? ' (no release)' : ''}${answer.body ? ` ${/"id":"([^"]*)"/.exec(answer.body.toString())?.[1] ?? 'noUpdateAvailable'}` : ''}`;

describe('manifestAnswer: the answer a loaded track gives a device', () => {
  it.each([
    ['empty', 'expo', 'multipart', undefined, undefined, '204 no-update (no release)'],
    ['empty', 'ota', 'json', undefined, undefined, '204 no-update (no release)'],
    ['release', 'expo', 'multipart', undefined, undefined, `200 update ${HEAD}`],
    ['release', 'ota', 'expo+json', undefined, undefined, `200 update ${HEAD}`],
    ['release', 'expo', 'multipart', HEAD, undefined, '200 no-update noUpdateAvailable'],
    ['release', 'expo', 'json', HEAD, undefined, '204 no-update'],
    ['release', 'ota', 'multipart', HEAD.toUpperCase(), undefined, '204 no-update'],
    ['directive', 'expo', 'multipart', HEAD, undefined, `200 directive ${HEAD}`],
    ['directive', 'expo', 'json', HEAD, undefined, undefined],
    ['directive', 'expo', 'multipart', EMBEDDED, undefined, '200 no-update noUpdateAvailable'],
    ['rollout', 'expo', 'multipart', undefined, inside, `200 update ${HEAD}`],
    ['rollout', 'expo', 'multipart', undefined, outside, `200 rollout-fallback ${FALLBACK}`],
    ['rollout', 'expo', 'multipart', undefined, undefined, `200 rollout-fallback ${FALLBACK}`],
    ['rollout', 'expo', 'multipart', FALLBACK, outside, '200 no-update noUpdateAvailable'],
    ['rollout, first release', 'expo', 'multipart', undefined, outside, '204 no-update'],
    ['rollout, first release', 'ota', 'json', undefined, inside, `200 update ${HEAD}`],
  ] as const)('%s track, %s %s, running %s, client %s → %s', async (track, ns, format, current, clientId, expected) => {
    const { tracks, manifestAnswer, upToDate } = await fixtures();
    const request = { currentUpdateId: current, embeddedUpdateId: track === 'directive' ? EMBEDDED : undefined };
    expect(what(manifestAnswer(tracks[track]!, { ns, request, clientId }, format, upToDate))).toBe(expected);
  });

  it.each([
    ['multipart', 'multipart/mixed; boundary=', true],
    ['expo+json', 'application/expo+json', false],
    ['json', 'application/json; charset=utf-8', false],
  ] as const)(
    'a %s answer is %s, its body the signed bytes in that structure',
    async (format, contentType, multipart) => {
      const { tracks, signed } = await fixtures();
      for (const ns of ['ota', 'expo'] as const) {
        const answer = tracks.release!.head!.answers[ns][format]!;
        const manifest = signed(HEAD, ns);
        expect(answer.headers['content-type']!.startsWith(contentType)).toBe(true);
        expect(answer.body).toEqual(multipart ? manifest.multipart : manifest.json);
        expect(answer.headers['cache-control']).toBe('private, max-age=0');
        expect(answer.headers[`${ns}-signature`]).toBe(multipart ? undefined : `sig="${HEAD}"`);
      }
    },
  );

  it('answers carry the protocol headers of their namespace, and JSON ones the signature', async () => {
    const { tracks, NO_RELEASE, OUTSIDE_ROLLOUT } = await fixtures();
    const answer = tracks.release!.head!.answers;
    expect(answer.ota.json!.headers).toMatchObject({ 'ota-protocol-version': '1', 'ota-signature': `sig="${HEAD}"` });
    expect(answer.expo['expo+json']!.headers['content-type']).toBe('application/expo+json');
    expect(answer.expo.multipart!.headers['content-length']).toBe(String(answer.expo.multipart!.body!.length));
    expect(answer.expo.multipart!.headers['expo-signature']).toBeUndefined();
    expect(NO_RELEASE.expo.json!.headers).toMatchObject({ 'expo-protocol-version': '1', 'expo-sfv-version': '0' });
    expect(OUTSIDE_ROLLOUT.ota.multipart!.noRelease).toBe(false);
  });
});
