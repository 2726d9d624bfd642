import { NO_RELEASE } from '../dist/ota/manifest/manifest-answer.js';
import { pickHeaders } from '../dist/ota/manifest/manifest-headers.js';
import { observeAnswer, replyToManifest } from '../dist/ota/manifest/manifest-reply.js';
import { trackKey } from '../dist/ota/manifest/track-key.js';

const raw = [
  'Host',
  '127.0.0.1:3000',
  'Accept',
  'multipart/mixed,application/expo+json,application/json',
  'expo-protocol-version',
  '1',
  'expo-platform',
  'ios',
  'expo-runtime-version',
  '1.0.0',
  'expo-channel-name',
  'production',
  'expo-expect-signature',
  'sig, keyid="main", alg="rsa-v1_5-sha256"',
];
const rawDev = [
  ...raw,
  'eas-client-id',
  'bench-device-00000001',
  'expo-current-update-id',
  '7b7f9c1e-0000-4000-8000-000000000001',
];
const entry = { kind: 'release', id: 'aaaaaaaa-0000-4000-8000-000000000001', answers: NO_RELEASE };
const track = { head: entry, rollout: undefined, fallback: undefined };
const rtrack = { head: entry, rollout: { releaseId: entry.id, percent: 50, state: 'running' }, fallback: entry };
const key = trackKey({ channel: 'production', platform: 'ios', runtimeVersion: '1.0.0' });
const mk = (t) => ({ cachedTrack: (k) => (k === key ? t : undefined), track: async () => t, upToDate: NO_RELEASE });
function run(name, rh, src) {
  const N = 1_000_000;
  for (let r = 0; r < 3; r++) {
    let t = performance.now();
    for (let i = 0; i < N; i++) {
      const p = pickHeaders(rh);
      const rep = replyToManifest(p, src);
      if (rep.ok) observeAnswer(rep, p, {}, 0);
    }
    const all = ((performance.now() - t) * 1000) / N;
    t = performance.now();
    for (let i = 0; i < N; i++) pickHeaders(rh);
    const pick = ((performance.now() - t) * 1000) / N;
    if (r === 2) console.log(name, 'all', all.toFixed(3), 'µs; pick', pick.toFixed(3));
  }
}
run('a', raw, mk(track));
run('g', rawDev, mk(rtrack));

import { manifestAnswer } from '../dist/ota/manifest/manifest-decision.js';
import { namespaceOf, negotiateManifestFormat, parseManifestRequest } from '../dist/ota/manifest/manifest-request.js';

function t(name, f) {
  const N = 1_000_000;
  let best = 1e9;
  for (let r = 0; r < 3; r++) {
    const s = performance.now();
    for (let i = 0; i < N; i++) f();
    best = Math.min(best, ((performance.now() - s) * 1000) / N);
  }
  console.log(name, best.toFixed(3));
}
const p = pickHeaders(raw);
const src = mk(track);
const pd = pickHeaders(rawDev);
t('namespaceOf', () => namespaceOf(p));
t('parse', () => parseManifestRequest(p, src.cachedTrack));
t('parse dev', () => parseManifestRequest(pd, src.cachedTrack));
t('negotiate', () => negotiateManifestFormat(p.get('accept')));
const parsed = parseManifestRequest(p, src.cachedTrack);
t('answer', () => manifestAnswer(track, parsed, 'multipart', NO_RELEASE));
t('reply', () => replyToManifest(p, src));
t('spread', () => ({ ...parsed, answer: 1 }));
