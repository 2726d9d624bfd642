import type { ServerResponse } from 'node:http';
import type { ConsoleEvent } from '@ferry/contracts';
import type { TrackEvents } from './track-events.js';

/** Open console streams per instance: far more than a team's operators, far fewer than sockets. */
export const CONSOLE_MAX_STREAMS = 200;
/** Below the usual 60 s idle timeout of proxies and load balancers. */
export const CONSOLE_HEARTBEAT_MS = 25_000;

export interface EventStreamOptions {
  events: TrackEvents;
  /** Open streams at most; one more is refused (503) rather than letting browsers pile up sockets. */
  maxConnections: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
}

/** The wire form of one event: an `event:` name the browser listens for, and JSON data. */
export const formatEvent = (event: ConsoleEvent): string => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * The console's server-sent event streams. Each stream gets every track event, a heartbeat
 * comment, and is forgotten the moment its socket closes; closing the server ends them all.
 */
export class ConsoleEventStreams {
  /** Each open stream, with how to ask whether its credential still admits it. */
  private readonly open = new Map<ServerResponse, (() => Promise<boolean>) | undefined>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly options: EventStreamOptions) {}

  get count(): number {
    return this.open.size;
  }

  get full(): boolean {
    return this.open.size >= this.options.maxConnections;
  }

  /**
   * Starts streaming to a response whose headers were not sent yet. `stillAdmitted` is asked at
   * every heartbeat: a stream whose session ended or whose token was revoked is closed then, so a
   * revocation stops the live feed within one heartbeat, not at the browser's next reconnect.
   */
  attach(response: ServerResponse, stillAdmitted?: () => Promise<boolean>, app?: string): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx and others buffer responses unless told not to.
      'x-accel-buffering': 'no',
    });
    // The first bytes tell the browser the stream is open (EventSource fires `open` on headers, but
    // a proxy may hold them back until a body arrives); `retry` paces reconnects.
    response.write(': connected\nretry: 2000\n\n');
    const unsubscribe = this.options.events.subscribe((event) => {
      // Another app's track is none of this console's business (a reset is everyone's).
      if (app !== undefined && event.type === 'track' && event.app !== app) return;
      response.write(formatEvent(event));
    });
    this.open.set(response, stillAdmitted);
    const forget = () => {
      unsubscribe();
      this.open.delete(response);
      if (this.open.size === 0) this.stopHeartbeat();
    };
    response.on('close', forget);
    response.on('error', forget);
    this.startHeartbeat();
  }

  private startHeartbeat(): void {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      for (const [response, stillAdmitted] of this.open) {
        response.write(': heartbeat\n\n');
        stillAdmitted?.().then(
          (admitted) => admitted || response.end(),
          () => response.end(),
        );
      }
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  /** Ends every stream: a closing server must not wait for browsers to hang up. */
  closeAll(): void {
    this.stopHeartbeat();
    for (const response of this.open.keys()) response.end();
    this.open.clear();
  }
}
