import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { APP_STORAGE_KEY } from '../src/app-in-view.js';
import { capture, signIn, signOut } from './support/console-page.js';
import { stackForFile } from './support/spec-stack.js';
import type { Stack } from './support/stack.js';

/**
 * Many apps on one Ferry, in the console: the app switcher, every request and the live stream
 * naming the app in view, per-app tokens. The second app is a row of the `apps` table (the app
 * registry's API is not on this branch), and its track a release published to the default app and
 * then made the second app's (the CLI here publishes to the default app only).
 */
let stack: Stack;
stackForFile('apps', (started) => {
  stack = started;
});
const ids: Record<string, string> = {};
let beaToken = '';

const row = (page: Page, runtimeVersion: string) =>
  page.locator(`tr[data-track="production/android/${runtimeVersion}"]`);
const appSelect = (page: Page) => page.locator('header').getByLabel('App', { exact: true });

async function query(text: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The console API requests a page makes from now on: each one's path, `ferry-app` header and `?app=`. */
function apiRequests(page: Page): Array<{ path: string; header?: string; query: string | null }> {
  const seen: Array<{ path: string; header?: string; query: string | null }> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/api/')) return;
    seen.push({ path: url.pathname, header: request.headers()['ferry-app'], query: url.searchParams.get('app') });
  });
  return seen;
}
const streams = (seen: ReturnType<typeof apiRequests>) =>
  seen.filter((request) => request.path === '/api/console/events').map((request) => request.query);

test('an admin sees every app: switching re-reads the session there and shows that app’s tracks only; every request names the app', async ({
  page,
}, testInfo) => {
  ids.default = await stack.publish('1.0.0', 'Default app build');
  ids.beta = await stack.publish('7.0.0', 'Beta build');
  await query(
    `insert into apps (slug, name, created_at, archived_at, key_id, certificate, signing_key)
     values ('beta', 'Beta shop', $1, null, 'main', null, null)`,
    [Date.now()],
  );
  await query(`update releases set app_id = 'beta' where id = $1`, [ids.beta]);

  const seen = apiRequests(page);
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  await expect(appSelect(page)).toHaveValue('default');
  await expect(appSelect(page).locator('option')).toHaveText(['Default app', 'Beta shop']);
  await expect(row(page, '1.0.0')).toContainText('Default app build');
  await expect(row(page, '7.0.0')).toHaveCount(0);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  expect(streams(seen)).toEqual(['default']);

  // From a track of the default app: the switch re-reads the session in Beta and opens its tracks.
  await page.getByRole('link', { name: 'production · android · 1.0.0' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'production · android · 1.0.0' })).toBeVisible();
  seen.length = 0;
  await appSelect(page).selectOption({ label: 'Beta shop' });
  await expect(page.getByRole('heading', { level: 1, name: 'Tracks' })).toBeVisible();
  await expect(page).toHaveURL(/#\/tracks$/);
  await expect(appSelect(page)).toHaveValue('beta');
  await expect(row(page, '7.0.0')).toContainText('Beta build');
  await expect(row(page, '1.0.0')).toHaveCount(0);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  const api = seen.filter((request) => request.path !== '/api/console/events');
  expect(api.map((request) => request.path)).toEqual(expect.arrayContaining(['/api/console/session']));
  expect(api.filter((request) => request.header !== 'beta')).toEqual([]);
  expect(streams(seen)).toEqual(['beta']);

  // Remembered: the next visit opens Beta. At 1440 and 390 px, with the switcher in the header.
  await page.reload();
  await expect(appSelect(page)).toHaveValue('beta');
  await expect(row(page, '7.0.0')).toBeVisible();
  await capture(page, testInfo, 'apps-switcher');

  // Back to the default app: its stream is live there (a publish shows up without a reload).
  seen.length = 0;
  await appSelect(page).selectOption({ label: 'Default app' });
  await expect(row(page, '1.0.0')).toContainText('Default app build');
  await expect(row(page, '7.0.0')).toHaveCount(0);
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  expect(streams(seen)).toEqual(['default']);
  await stack.publish('1.0.0', 'Live in the default app');
  await expect(row(page, '1.0.0')).toContainText('Live in the default app');
});

test('an admin grants a token one app, or every app for an admin token; the list names each token’s app', async ({
  page,
}, testInfo) => {
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  await page.getByRole('link', { name: 'Tokens' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Operator tokens' })).toBeVisible();
  const form = page.locator('form.create-token');
  const role = form.getByLabel('Role');
  const app = form.getByLabel('App', { exact: true });
  await expect(app).toHaveValue('default');
  await expect(app.locator('option')).toHaveText(['Default app', 'Beta shop']);
  await role.selectOption('admin');
  await expect(app.locator('option')).toHaveText(['every app (server-wide)', 'Default app', 'Beta shop']);
  await app.selectOption({ label: 'every app (server-wide)' });
  // Every app is an admin token's only: another role falls back to the app in view.
  await role.selectOption('viewer');
  await expect(app).toHaveValue('default');

  await app.selectOption({ label: 'Beta shop' });
  await form.getByLabel('Name').fill('bea');
  await form.getByRole('button', { name: 'Create token' }).click();
  const created = page.getByRole('region', { name: 'Token for bea (viewer)' });
  beaToken = await created.getByLabel('Token', { exact: true }).inputValue();
  expect(beaToken).toMatch(/^ferry_op_/);
  await created.getByRole('button', { name: 'I have stored it' }).click();
  const appOf = (name: string) => page.locator(`tr[data-token="${name}"] td[data-label="App"]`);
  await expect(appOf('bea')).toHaveText('Beta shop');
  await expect(appOf('ada')).toHaveText('every app (server-wide)');
  await expect(appOf('vera')).toHaveText('Default app');
  await capture(page, testInfo, 'apps-tokens');
});

test('a token granted one app sees no switcher and only that app; a remembered app it may not see falls back without an error', async ({
  page,
}) => {
  // vera: a viewer token from before apps, the default app's.
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await expect(page.locator('header select')).toHaveCount(0);
  await expect(page.locator('header .app-name')).toHaveText('Default app');
  await expect(row(page, '1.0.0')).toBeVisible();
  await expect(row(page, '7.0.0')).toHaveCount(0);
  await signOut(page);

  // bea sees Beta only, though this browser remembers the default app from vera's visit.
  expect(await page.evaluate((key) => window.localStorage.getItem(key), APP_STORAGE_KEY)).toBe('default');
  await signIn(page, stack.a.url, beaToken);
  await expect(page.locator('header select')).toHaveCount(0);
  await expect(page.locator('header .app-name')).toHaveText('Beta shop');
  await expect(row(page, '7.0.0')).toContainText('Beta build');
  await expect(row(page, '1.0.0')).toHaveCount(0);

  // The remembered app is refused (403 APP_FORBIDDEN): the console opens the app the server picks.
  const refused = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/console/session' && response.status() === 403,
  );
  await page.evaluate((key) => window.localStorage.setItem(key, 'default'), APP_STORAGE_KEY);
  await page.reload();
  expect((await refused).request().headers()['ferry-app']).toBe('default');
  await expect(page.locator('header .app-name')).toHaveText('Beta shop');
  await expect(row(page, '7.0.0')).toContainText('Beta build');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await page.evaluate((key) => window.localStorage.getItem(key), APP_STORAGE_KEY)).toBe('beta');
});
