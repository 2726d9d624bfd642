import type { ConsoleSession } from '@ferry/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.js';
import { sessionAfterSignIn, sessionInApp } from './console-session.js';

const session = (app: string, apps: string[] = [app]): ConsoleSession => ({
  name: 'ada',
  role: 'admin',
  kind: 'token',
  expiresAt: null,
  allowedActions: ['read'],
  app,
  apps: apps.map((slug) => ({ slug, name: slug.toUpperCase(), role: 'admin' })),
});

const forbidden = new ApiError(403, 'APP_FORBIDDEN', "You have no role in app 'gone'.");

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('sessionInApp', () => {
  it('reads the session in the app wanted, or in the server’s pick when none is', async () => {
    const read = vi.fn(async (app: string | null) => session(app ?? 'alpha'));
    expect((await sessionInApp('beta', read)).app).toBe('beta');
    expect((await sessionInApp(undefined, read)).app).toBe('alpha');
    expect(read.mock.calls).toEqual([['beta'], [null]]);
  });

  it('falls back to the server’s pick when the operator may not see the app wanted (no error screen)', async () => {
    const read = vi.fn(async (app: string | null) => {
      if (app === 'gone') throw forbidden;
      return session('alpha');
    });
    expect((await sessionInApp('gone', read)).app).toBe('alpha');
    expect(read.mock.calls).toEqual([['gone'], [null]]);
  });

  it('leaves any other failure to the caller (401: the sign-in page)', async () => {
    const unauthenticated = new ApiError(401, 'UNAUTHENTICATED', 'Not signed in to the console.');
    await expect(
      sessionInApp('beta', async () => {
        throw unauthenticated;
      }),
    ).rejects.toBe(unauthenticated);
  });
});

describe('sessionAfterSignIn', () => {
  it('keeps the sign-in’s app when nothing is remembered, or the remembered app is not this operator’s', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const signedIn = session('alpha', ['alpha', 'beta']);
    expect(await sessionAfterSignIn(signedIn, undefined)).toBe(signedIn);
    expect(await sessionAfterSignIn(signedIn, 'alpha')).toBe(signedIn);
    expect(await sessionAfterSignIn(signedIn, 'gamma')).toBe(signedIn);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('opens the remembered app when this operator may see it', async () => {
    const asked: Array<string | undefined> = [];
    vi.stubGlobal('fetch', async (_path: string, init: { headers: Record<string, string> }) => {
      asked.push(init.headers['ferry-app']);
      return Response.json(session('beta', ['alpha', 'beta']));
    });
    const opened = await sessionAfterSignIn(session('alpha', ['alpha', 'beta']), 'beta');
    expect(opened.app).toBe('beta');
    expect(asked).toEqual(['beta']);
  });
});
