import { AppSlug, type AppView } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { createI18n, translatorOf } from '../i18n/console-i18n.js';
import { appsInOrder, nextStepsOf, slugProblem } from './AppsPage.js';

const RULE = AppSlug.safeParse('').error?.issues[0]?.message;

describe('slugProblem', () => {
  it('says nothing of a good slug, and AppSlug’s own words of a bad one', () => {
    expect(RULE).toMatch(/^An app slug is 2–40 lowercase letters/);
    for (const good of ['shop', 'my-app', 'a1', `a${'b'.repeat(39)}`]) expect(slugProblem(good), good).toBeUndefined();
    for (const bad of ['', 's', 'Shop', '1shop', 'my--app', 'shop-', '-shop', 'my_app', `a${'b'.repeat(40)}`]) {
      expect(slugProblem(bad), bad).toBe(RULE);
    }
  });
});

const app = (slug: string, createdAt: string, archivedAt: string | null = null): AppView => ({
  slug,
  name: slug,
  createdAt,
  archivedAt,
  keyId: 'main',
  manifestPath: `/api/apps/${slug}/manifest`,
});

describe('appsInOrder', () => {
  it('lists active apps before archived ones, each oldest first', () => {
    const apps = [
      app('old-gone', '2025-01-02T00:00:00.000Z', '2025-03-01T00:00:00.000Z'),
      app('shop', '2025-02-01T00:00:00.000Z'),
      app('default', '2025-01-01T00:00:00.000Z'),
      app('gone', '2025-01-03T00:00:00.000Z', '2025-02-01T00:00:00.000Z'),
    ];
    expect(appsInOrder(apps).map((a) => a.slug)).toEqual(['default', 'shop', 'old-gone', 'gone']);
  });
});

describe('the next steps after creating an app', () => {
  it('name the app in the CLI and in the app config, and the token’s CI variable, in both languages', () => {
    expect(nextStepsOf('shop')).toEqual({
      init: 'ferry init --app shop',
      config: "updatesConfig(appEnv, { …, app: 'shop' })",
    });
    const en = translatorOf(createI18n('en'));
    expect(en('apps.nextSteps', nextStepsOf('shop'))).toBe(
      "Next: save the certificate to a file and run <0>ferry init --app shop</0>, or pass <1>updatesConfig(appEnv, { …, app: 'shop' })</1> in your app config; give CI this token as <2>OTA_RELEASE_TOKEN</2>.",
    );
    const ko = translatorOf(createI18n('ko'));
    expect(ko('apps.nextSteps', nextStepsOf('shop'))).toContain('<0>ferry init --app shop</0>');
  });
});
