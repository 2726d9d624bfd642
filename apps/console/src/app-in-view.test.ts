import { APP_HEADER } from '@ferry/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { request } from './api.js';
import { APP_STORAGE_KEY, appInView, rememberedApp, showApp } from './app-in-view.js';
import { eventsUrl } from './live.js';

/** The headers of each request `fetch` was asked for. */
function recordFetches(): Array<Record<string, string>> {
  const seen: Array<Record<string, string>> = [];
  vi.stubGlobal('fetch', async (_path: string, init: { headers: Record<string, string> }) => {
    seen.push(init.headers);
    return new Response('{}', { status: 200 });
  });
  return seen;
}

const memoryStorage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the app in view', () => {
  it('is remembered between visits, and no storage at all is no app', () => {
    expect(rememberedApp()).toBeUndefined(); // no window: as with storage blocked
    const storage = memoryStorage();
    vi.stubGlobal('window', { localStorage: storage });
    expect(rememberedApp()).toBeUndefined();
    showApp('beta');
    expect(appInView()).toBe('beta');
    expect(storage.getItem(APP_STORAGE_KEY)).toBe('beta');
    expect(rememberedApp()).toBe('beta');
  });

  it('is named on every request as the ferry-app header, unless a request names none', async () => {
    vi.stubGlobal('window', { localStorage: memoryStorage() });
    const seen = recordFetches();
    showApp('alpha');
    await request('/api/console/tracks');
    await request('/api/console/rollouts', { method: 'POST', body: {} });
    await request('/api/console/session', { method: 'POST', body: {}, app: null });
    await request('/api/console/session', { app: 'beta' });
    expect(seen.map((headers) => headers[APP_HEADER])).toEqual(['alpha', 'alpha', undefined, 'beta']);
  });

  it('names its event stream in the query: an EventSource sends no headers', () => {
    expect(eventsUrl('my-app')).toBe('/api/console/events?app=my-app');
  });
});
