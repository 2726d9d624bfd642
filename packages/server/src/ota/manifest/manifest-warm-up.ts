import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http, { type RequestListener } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import {
  appManifestPath,
  DEFAULT_APP,
  LEGACY_MANIFEST_PATH,
  MANIFEST_PROTOCOL_VERSION,
  MANIFEST_SIGNATURE_ALGORITHM,
  manifestHeaders,
} from '@ferry/contracts';
import type { Track } from '../app-track.js';
import { requestHeaders } from './manifest-headers.js';

/** A track the instance loaded at start-up, and the id of the entry it serves. */
export interface WarmedTrack {
  track: Track;
  headId: string;
}

/** Connections the warm-up keeps busy: as many requests in flight as a few dozen devices. */
const CONNECTIONS = 32;
/** Where a device of the track's app asks: its app's URL, or the default app's from before apps. */
export const warmUpPath = (track: Pick<Track, 'app'>): string =>
  track.app === DEFAULT_APP ? LEGACY_MANIFEST_PATH : appManifestPath(track.app);
/** A safety net: a warm-up that has not finished by then stops, and the instance starts anyway. */
export const WARM_UP_DEADLINE_MS = 10_000;

/**
 * The headers of warm-up request `index`, as expo-updates sends them. The first pass over the
 * tracks is a device on its embedded bundle (it gets the release), the second a device that runs
 * the release already (it gets noUpdateAvailable). The embedded update id is this warm-up's own,
 * random: a real device never sends it, so no device finds a parsed request the warm-up left
 * behind.
 */
export function warmUpHeaders(
  tracks: readonly WarmedTrack[],
  index: number,
  embeddedId: string,
): Record<string, string> {
  const { track, headId } = tracks[index % tracks.length]!;
  const upToDate = Math.floor(index / tracks.length) % 2 === 1;
  return {
    accept: 'multipart/mixed,application/expo+json,application/json',
    ...requestHeaders('expo', {
      protocolVersion: MANIFEST_PROTOCOL_VERSION,
      ...track,
      currentUpdateId: upToDate ? headId : embeddedId,
      embeddedUpdateId: embeddedId,
    }),
    [manifestHeaders('expo').expectSignature]: `sig, keyid="main", alg="${MANIFEST_SIGNATURE_ALGORITHM}"`,
  };
}

export interface WarmUpResult {
  sent: number;
  /** Requests answered 200 (an update, or a signed noUpdateAvailable / directive). */
  answered: number;
  /** True when the deadline stopped it. */
  stopped: boolean;
  ms: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive connection sending the next request each time the last one's answer is complete.
 * Answers are framed by their content-length, which every manifest answer with a body has; an
 * answer without one ends the warm-up with an error.
 */
function connection(socket: net.Socket, next: () => string | undefined, answered: (status: number) => void) {
  return new Promise<void>((resolve, reject) => {
    let pending: Buffer = Buffer.alloc(0);
    const send = () => {
      const request = next();
      if (request === undefined) socket.end();
      else socket.write(request);
    };
    socket.once('connect', send);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const headEnd = pending.indexOf(HEAD_END);
      if (headEnd < 0) return;
      const head = pending.toString('latin1', 0, headEnd);
      const status = Number(head.slice(9, 12));
      // 204 and 304 never have a body (RFC 9110 §6.4.1).
      const length = status === 204 || status === 304 ? '0' : /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
      if (length === undefined) {
        socket.destroy(new Error(`a warm-up answer had no content-length: ${head.split('\r\n')[0]}`));
        return;
      }
      const end = headEnd + HEAD_END.length + Number(length);
      if (pending.length < end) return;
      answered(status);
      pending = pending.subarray(end);
      send();
    });
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
}

const requestOf = (path: string, headers: Record<string, string>): string => {
  let request = `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n`;
  for (const [name, value] of Object.entries(headers)) request += `${name}: ${value}\r\n`;
  return `${request}\r\n`;
};

/**
 * Sends `requests` manifest requests over `tracks` to `listener` (the server's own request
 * handler, fast paths first) on a loopback server of its own, before the instance listens.
 *
 * Why: an instance that has just started runs its manifest path unoptimised, and a fleet's first
 * seconds on it are slower, with a long tail. A few thousand requests of its own get the path
 * optimised before devices arrive. They go through a real socket and the same handler, so the
 * code is optimised for what devices send.
 *
 * The client is a socket writing requests and framing answers by content-length, as wrk does:
 * node:http's client would run its parser callbacks and message classes, which the server shares,
 * on client traffic that devices never send, and optimise them for it.
 *
 * Nothing of a warm-up request is kept that a device could see: it carries no client id (no
 * device report, no rollout bucket), and the caller forgets the manifest metrics it counted.
 */
export async function warmUpManifestPath(
  listener: RequestListener,
  tracks: readonly WarmedTrack[],
  requests: number,
  deadlineMs = WARM_UP_DEADLINE_MS,
): Promise<WarmUpResult> {
  const started = performance.now();
  if (requests <= 0 || tracks.length === 0) return { sent: 0, answered: 0, stopped: false, ms: 0 };
  const server = http.createServer(listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  const deadline = AbortSignal.timeout(deadlineMs);
  const embeddedId = randomUUID();
  let sent = 0;
  let answered = 0;
  const next = () =>
    sent < requests && !deadline.aborted
      ? requestOf(warmUpPath(tracks[sent % tracks.length]!.track), warmUpHeaders(tracks, sent++, embeddedId))
      : undefined;
  const count = (status: number) => {
    if (status === 200) answered++;
  };
  const sockets: net.Socket[] = [];
  // One listener for all the sockets: one each would pass the signal's listener limit (a warning).
  const stop = () => {
    for (const socket of sockets) socket.destroy();
  };
  deadline.addEventListener('abort', stop, { once: true });
  try {
    // Inside the try: a connect that throws must still close the loopback server.
    for (let i = 0; i < Math.min(CONNECTIONS, requests); i++) sockets.push(net.connect(port, '127.0.0.1'));
    await Promise.all(sockets.map((socket) => connection(socket, next, count)));
  } finally {
    deadline.removeEventListener('abort', stop);
    stop();
    server.closeAllConnections();
    server.close();
  }
  return { sent, answered, stopped: deadline.aborted, ms: Math.round(performance.now() - started) };
}
