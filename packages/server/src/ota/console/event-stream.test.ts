import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleEventStreams, formatEvent } from './event-stream.js';
import { TrackEvents } from './track-events.js';

/** Enough of a ServerResponse to stream to: what was written, and a socket that can close. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, string> = {};
  text = '';
  ended = false;
  writeHead(status: number, headers: Record<string, string>) {
    this.status = status;
    this.headers = headers;
    return this;
  }
  write(chunk: string) {
    this.text += chunk;
    return true;
  }
  end() {
    this.ended = true;
    this.emit('close');
  }
}

const track = { channel: 'production', platform: 'ios', runtimeVersion: '1.0.0' } as const;

describe('ConsoleEventStreams', () => {
  afterEach(() => vi.useRealTimers());

  it('streams every track event to every open stream, and forgets a stream when its socket closes', () => {
    const events = new TrackEvents();
    const streams = new ConsoleEventStreams({ events, maxConnections: 10, heartbeatMs: 1000 });
    const a = new FakeResponse();
    const b = new FakeResponse();
    streams.attach(a as unknown as ServerResponse);
    streams.attach(b as unknown as ServerResponse);
    expect(a.status).toBe(200);
    expect(a.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    events.emit({ type: 'track', app: 'default', ...track, origin: 'remote' });
    expect(a.text).toContain(formatEvent({ type: 'track', app: 'default', ...track, origin: 'remote' }));
    expect(b.text).toContain('event: track\ndata: {"type":"track"');

    b.emit('close');
    expect(streams.count).toBe(1);
    expect(events.size).toBe(1);
    events.emit({ type: 'reset' });
    expect(b.text).not.toContain('event: reset');
    expect(a.text).toContain('event: reset\ndata: {"type":"reset"}\n\n');
  });

  it('is full at its bound, and has room again once a stream closes', () => {
    const streams = new ConsoleEventStreams({ events: new TrackEvents(), maxConnections: 2, heartbeatMs: 1000 });
    const first = new FakeResponse();
    streams.attach(first as unknown as ServerResponse);
    expect(streams.full).toBe(false);
    streams.attach(new FakeResponse() as unknown as ServerResponse);
    expect(streams.full).toBe(true);
    first.emit('close');
    expect(streams.full).toBe(false);
  });

  it('sends heartbeat comments while streams are open, and none once they are all gone', () => {
    vi.useFakeTimers();
    const streams = new ConsoleEventStreams({ events: new TrackEvents(), maxConnections: 2, heartbeatMs: 1000 });
    const response = new FakeResponse();
    streams.attach(response as unknown as ServerResponse);
    vi.advanceTimersByTime(2000);
    expect(response.text.match(/: heartbeat\n\n/g)).toHaveLength(2);
    response.emit('close');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('closes, at a heartbeat, a stream whose credential no longer admits it', async () => {
    vi.useFakeTimers();
    const streams = new ConsoleEventStreams({ events: new TrackEvents(), maxConnections: 2, heartbeatMs: 1000 });
    const kept = new FakeResponse();
    const revoked = new FakeResponse();
    let admitted = true;
    streams.attach(kept as unknown as ServerResponse, async () => true);
    streams.attach(revoked as unknown as ServerResponse, async () => admitted);
    vi.advanceTimersByTime(1000);
    await vi.waitFor(() => expect(revoked.text).toContain(': heartbeat'));
    expect(revoked.ended).toBe(false);
    admitted = false;
    vi.advanceTimersByTime(1000);
    await vi.waitFor(() => expect(revoked.ended).toBe(true));
    expect(kept.ended).toBe(false);
    expect(streams.count).toBe(1);
  });

  it('ends every stream when the server closes', () => {
    const events = new TrackEvents();
    const streams = new ConsoleEventStreams({ events, maxConnections: 2, heartbeatMs: 1000 });
    const response = new FakeResponse();
    streams.attach(response as unknown as ServerResponse);
    streams.closeAll();
    expect(response.ended).toBe(true);
    expect(streams.count).toBe(0);
    expect(events.size).toBe(0);
  });
});
