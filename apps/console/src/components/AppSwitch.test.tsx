import type { ConsoleSession } from '@ferry/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/console-i18n.js';
import { SessionProvider } from '../session.js';
import { AppSwitch } from './AppSwitch.js';

const session = (app: string, apps: Array<[string, string]>): ConsoleSession => ({
  name: 'ada',
  role: 'admin',
  kind: 'token',
  expiresAt: null,
  allowedActions: ['read'],
  app,
  apps: apps.map(([slug, name]) => ({ slug, name, role: 'viewer' })),
});

/** The header's app switch as markup (react-dom/server), in English or Korean. */
const render = (value: ConsoleSession, language: 'en' | 'ko' = 'en'): string =>
  renderToStaticMarkup(
    <I18nextProvider i18n={createI18n(language)}>
      <SessionProvider session={value}>
        <AppSwitch onSwitch={async () => {}} />
      </SessionProvider>
    </I18nextProvider>,
  );

describe('AppSwitch', () => {
  it('with one app shows its name only: nothing to switch to', () => {
    const html = render(session('default', [['default', 'Default app']]));
    expect(html).not.toContain('<select');
    expect(html).toContain('<span class="app-name">Default app</span>');
    expect(html).toContain('<span class="visually-hidden">App: </span>');
  });

  it('with several apps is a labelled select of them by name, on the app in view', () => {
    const html = render(
      session('beta', [
        ['alpha', 'Alpha shop'],
        ['beta', 'Beta & Co'],
      ]),
    );
    const id = /<select id="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeDefined();
    expect(html).toContain(`<label for="${id}">App</label>`);
    expect([...html.matchAll(/<option value="([^"]+)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]])).toEqual([
      ['alpha', 'Alpha shop'],
      ['beta', 'Beta &amp; Co'],
    ]);
    expect(html).toMatch(/<option value="beta" selected="">/);
  });

  it('is labelled in Korean too', () => {
    const html = render(
      session('alpha', [
        ['alpha', 'Alpha'],
        ['beta', 'Beta'],
      ]),
      'ko',
    );
    expect(html).toMatch(/<label for="[^"]+">앱<\/label>/);
  });
});
