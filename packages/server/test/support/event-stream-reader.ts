/**
 * Reads a server-sent event stream over fetch (Node has no EventSource), so tests can wait for the
 * event they expect. Events are parsed as the browser does: `event:` names, `data:` lines.
 */
export interface StreamedEvent {
  event: string;
  data: string;
}

export interface EventStreamReader {
  status: number;
  headers: Headers;
  /** Resolves with the first event (already received or still to come) that matches. */
  next(matches: (event: StreamedEvent) => boolean): Promise<StreamedEvent>;
  /** Everything received so far, comments included (for heartbeat checks). */
  raw(): string;
  close(): void;
}

export async function openEventStream(url: string, headers: Record<string, string>): Promise<EventStreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const received: StreamedEvent[] = [];
  const waiters: Array<{ matches: (event: StreamedEvent) => boolean; resolve: (event: StreamedEvent) => void }> = [];
  let text = '';
  let buffer = '';
  const deliver = (event: StreamedEvent) => {
    received.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.matches(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  };
  if (response.body && response.ok) {
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          const part = decoder.decode(chunk, { stream: true });
          text += part;
          buffer += part;
          let end = buffer.indexOf('\n\n');
          while (end !== -1) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith('event:')) event = line.slice(6).trim();
              else if (line.startsWith('data:')) data.push(line.slice(5).trim());
            }
            if (data.length > 0) deliver({ event, data: data.join('\n') });
            end = buffer.indexOf('\n\n');
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    status: response.status,
    headers: response.headers,
    next: (matches) => {
      const found = received.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
    raw: () => text,
    close: () => controller.abort(),
  };
}
