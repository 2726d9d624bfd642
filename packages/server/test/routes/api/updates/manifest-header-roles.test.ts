import { createHash } from 'node:crypto';
import { MANIFEST_NAMESPACES, manifestHeaders } from '@ferry/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HeaderRole, MANIFEST_REQUEST_HEADERS } from '../../../../src/ota/manifest/manifest-headers.js';
import { rolloutBucket } from '../../../../src/ota/rollout/rollout-bucket.js';
import { fileOf, publishRelease } from '../../../support/publisher.js';
import { startTestServer, type TestServer } from '../../../support/test-server.js';

/**
 * The table of manifest request headers (manifest-headers.ts) is the truth about what selects an
 * answer. Each header a client may send is varied over HTTP, one at a time, against a track whose
 * answer depends on everything that can change it (a running rollout over a fallback): a header
 * that changes the answer must be declared `track` or `selects` (or `refuses`, when all it can do
 * is refuse), and a header declared so must change it. A header read without being declared, or
 * declared with the wrong role, fails here.
 */
let server: TestServer;
const track = { platform: 'ios', runtimeVersion: 'roles-1', channel: 'production' } as const;
let fallback: string;
let head: string;
const EMBEDDED = '0e0e0e0e-0000-4000-8000-00000000000e';

beforeAll(async () => {
  server = await startTestServer('sqlite');
  const launch = (text: string) => fileOf(text.repeat(50), 'application/javascript', '.bundle');
  ({ id: fallback } = await publishRelease(server, { ...track, launch: launch('fallback();') }));
  ({ id: head } = await publishRelease(server, {
    ...track,
    launch: launch('head();'),
    payload: { rollout: { percent: 50 } },
  }));
});
afterAll(async () => server?.close());

const devices = Array.from({ length: 200 }, (_, i) => `device-${i}`);
/** A device inside the rollout: it gets the head, while the base request (outside) gets the fallback. */
const insideDevice = () => devices.find((id) => rolloutBucket(id, head) < 50)!;
const outsideDevice = () => devices.find((id) => rolloutBucket(id, head) >= 50)!;

/** The request every variation starts from: an expo-updates device outside the rollout, on its embedded update. */
const base = (): Record<string, string> => ({
  accept: 'multipart/mixed,application/expo+json,application/json',
  'expo-protocol-version': '1',
  'expo-platform': track.platform,
  'expo-runtime-version': track.runtimeVersion,
  'expo-channel-name': track.channel,
  'expo-current-update-id': EMBEDDED,
  'expo-embedded-update-id': EMBEDDED,
  'eas-client-id': outsideDevice(),
});

/** Other values for a header, each a value a client could send; `undefined` removes it. */
function variations(name: string): Array<string | undefined> {
  const ota = manifestHeaders('ota');
  const expo = manifestHeaders('expo');
  switch (name) {
    case 'accept':
      return ['application/json', 'text/html'];
    case 'eas-client-id':
      return [insideDevice(), undefined];
    case expo.platform:
      return ['android', 'web', undefined];
    case expo.runtimeVersion:
      return ['roles-2', undefined];
    case expo.channel:
      return ['development', 'staging'];
    case expo.currentUpdateId:
      return [fallback, head, 'latest'];
    case expo.embeddedUpdateId:
      return [fallback, 'not-an-id'];
    case expo.protocolVersion:
      return ['2', undefined];
    // The spec's namespace, beside a complete expo-… request: read only when it outnumbers it.
    case ota.platform:
    case ota.runtimeVersion:
    case ota.channel:
      return ['android'];
    case ota.currentUpdateId:
    case ota.embeddedUpdateId:
      return [head];
    case ota.protocolVersion:
      return ['2'];
    case 'expo-recent-failed-update-ids':
      return [`"${fallback}"`];
    case 'expo-fatal-error':
      return ['TypeError: boom'];
    default:
      return ['x', undefined];
  }
}

async function answerTo(headers: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/api/updates/manifest`, { headers });
  const body = Buffer.from(await response.arrayBuffer()).toString();
  // The multipart boundary is per process, the same in every answer; the body is compared whole.
  return `${response.status} ${createHash('sha256').update(body).digest('hex')}`;
}

/** Headers a client sends that the table leaves out: they must never change an answer. */
const UNDECLARED = [
  manifestHeaders('expo').expectSignature,
  manifestHeaders('ota').expectSignature,
  'expo-api-version',
  'expo-json-error',
  'expo-extra-params',
  'user-agent',
  'x-forwarded-for',
];

describe('every header the manifest reads changes an answer exactly when its declared role says it can', () => {
  const declared = MANIFEST_REQUEST_HEADERS.map(({ name, role }) => [name, role] as const);
  it.each([...declared, ...UNDECLARED.map((name) => [name, 'undeclared'] as const)])(
    '%s (%s)',
    async (name, role: HeaderRole | 'undeclared') => {
      const baseline = await answerTo(base());
      expect(baseline).toMatch(/^200 /);
      const changed: string[] = [];
      for (const value of variations(name)) {
        const headers = base();
        if (value === undefined) delete headers[name];
        else headers[name] = value;
        if ((await answerTo(headers)) !== baseline) changed.push(String(value));
      }
      if (role === 'reports' || role === 'undeclared') expect(changed).toEqual([]);
      else if (name.startsWith('ota-'))
        expect(changed).toEqual([]); // outnumbered by the expo-… headers
      else expect(changed.length).toBeGreaterThan(0);
    },
  );

  it('every namespaced field is declared in both namespaces', () => {
    for (const ns of MANIFEST_NAMESPACES) {
      const names = manifestHeaders(ns);
      for (const field of ['platform', 'runtimeVersion', 'channel', 'currentUpdateId', 'embeddedUpdateId'] as const)
        expect(declared.map(([name]) => name)).toContain(names[field]);
    }
  });
});
