import { AppSlug } from '@ferry/contracts';
import { expect, type Page, test } from '@playwright/test';
import { capture, signIn, signOut } from './support/console-page.js';
import { stackForFile } from './support/spec-stack.js';
import type { Stack } from './support/stack.js';

/**
 * The Apps page: an admin of every app creates an app (its release token shown once, its
 * certificate), finds it in the switcher and the table, and archives it after a confirmation;
 * anyone else gets no Apps entry, and #/apps reads the server's refusal. The server makes the app's
 * key and seals it with the development APP_KEYS_SECRET (DATA_DIR/dev), as a real deployment would.
 */
let stack: Stack;
stackForFile('apps-page', (started) => {
  stack = started;
});
let shopToken = '';

const appSelect = (page: Page) => page.locator('header').getByLabel('App', { exact: true });
const appsLink = (page: Page) => page.getByRole('navigation').getByRole('link', { name: 'Apps' });
const appRow = (page: Page, slug: string) => page.locator(`tr[data-app="${slug}"]`);
const SLUG_RULE = AppSlug.safeParse('Shop').error?.issues[0]?.message ?? '';

test('an admin of every app creates shop: the release token once, the certificate, shop in the switcher and the table', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.a.url });
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  // One app yet: the header names it, no switcher.
  await expect(page.locator('header .app-name')).toHaveText('Default app');
  await appsLink(page).click();
  await expect(page).toHaveURL(/#\/apps$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
  await expect(appRow(page, 'default')).toContainText('/api/apps/default/manifest');
  // The default app is the configuration's: it has no Archive action.
  await expect(appRow(page, 'default').getByRole('button')).toHaveCount(0);

  // A bad slug is refused here in AppSlug's words, without asking the server.
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/apps') posts.push(request.url());
  });
  const form = page.locator('form.create-app');
  const slug = form.getByLabel('Slug');
  await slug.fill('Shop');
  await form.getByRole('button', { name: 'Create app' }).click();
  await expect(form.getByText(SLUG_RULE)).toBeVisible();
  await expect(slug).toHaveAttribute('aria-invalid', 'true');
  await expect(slug).toBeFocused();
  expect(posts).toEqual([]);

  await slug.fill('shop');
  await expect(form.getByText(SLUG_RULE)).toHaveCount(0);
  await form.getByLabel('Name').fill('Shop');
  await form.getByRole('button', { name: 'Create app' }).click();
  const created = page.getByRole('region', { name: 'App Shop created' });
  await expect(created).toContainText('This is the only time the release token is shown.');
  shopToken = await created.getByLabel('Release token', { exact: true }).inputValue();
  expect(shopToken.length).toBeGreaterThan(20);
  const certificate = created.locator('pre.certificate');
  await expect(certificate).toContainText('-----BEGIN CERTIFICATE-----');
  await created.getByRole('button', { name: 'Copy certificate of shop' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  // Exactly the PEM on screen, as the server answered it.
  expect(copied).toBe(await certificate.textContent());
  expect(copied).toMatch(/^-----BEGIN CERTIFICATE-----\r?\n[\s\S]+\r?\n-----END CERTIFICATE-----\s*$/);
  await created.getByRole('button', { name: 'Copy release token of shop' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shopToken);
  await expect(created.locator('.next-steps')).toContainText('ferry init --app shop');
  await expect(created.locator('.next-steps')).toContainText("updatesConfig(appEnv, { …, app: 'shop' })");
  await expect(created.locator('.next-steps')).toContainText('OTA_RELEASE_TOKEN');
  await expect(page.getByRole('status').getByText('App Shop created.')).toBeVisible();

  // The session was read again: the switcher lists shop; the table has its row.
  await expect(appSelect(page).locator('option')).toHaveText(['Default app', 'Shop']);
  await expect(appSelect(page)).toHaveValue('default');
  await expect(appRow(page, 'shop')).toContainText('/api/apps/shop/manifest');
  await expect(appRow(page, 'shop')).toContainText('active');
  // Accessible, and nothing (the certificate's 64-character lines included) sticks out at 390 px.
  await capture(page, testInfo, 'apps-created');

  // Shown once: not after a reload, nowhere in the page.
  await page.reload();
  await expect(appRow(page, 'shop')).toBeVisible();
  await expect(page.getByRole('region', { name: 'App Shop created' })).toHaveCount(0);
  expect(await page.content()).not.toContain(shopToken);

  // The slug is taken: the server's refusal, in its words.
  await form.getByLabel('Slug').fill('shop');
  await form.getByRole('button', { name: 'Create app' }).click();
  await expect(form.getByRole('alert')).toContainText('APP_EXISTS');
  await capture(page, testInfo, 'apps');
});

test('the new app works: its release token publishes to it, and the switcher shows its track', async ({ page }) => {
  await stack.publish('3.0.0', 'First shop build', [], { OTA_RELEASE_TOKEN: shopToken });
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  await appSelect(page).selectOption({ label: 'Shop' });
  await expect(appSelect(page)).toHaveValue('shop');
  await expect(page.locator('tr[data-track="production/android/3.0.0"]')).toContainText('First shop build');
});

test('a releaser sees no Apps entry; #/apps shows the server’s refusal', async ({ page }, testInfo) => {
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await expect(appsLink(page)).toHaveCount(0);
  await page.goto(`${stack.a.url}/console/#/apps`);
  await expect(page.getByRole('heading', { level: 1, name: 'Apps' })).toBeVisible();
  const refusal = page.getByRole('alert');
  await expect(refusal).toContainText('Only an admin of every app may manage apps; your grants are per app.');
  await expect(refusal).toContainText('APP_FORBIDDEN');
  await expect(page.locator('form.create-app')).toHaveCount(0);
  await expect(page.locator('table.apps')).toHaveCount(0);
  await capture(page, testInfo, 'apps-refused');
  await signOut(page);
});

test('an admin of one app manages its tokens, not the apps: #/apps shows the server’s refusal, and no Apps entry', async ({
  page,
}) => {
  // Known server bug (reported, not fixed here: the brief leaves the server alone): the session's
  // allowedActions are allowedActions(role in the app in view), so an admin of one app is listed
  // apps.manage and shown the Apps entry, though GET /api/apps refuses it. Remove this line once the
  // session lists apps.manage only for an admin of every app (serverRoleOf).
  const made = await fetch(`${stack.a.url}/api/operator-tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.a.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'dina', role: 'admin', app: 'default' }),
  });
  expect(made.status).toBe(201);
  const { token } = (await made.json()) as { token: string };
  await signIn(page, stack.a.url, token);
  await page.goto(`${stack.a.url}/console/#/apps`);
  await expect(page.getByRole('alert')).toContainText('Only an admin of every app may manage apps');
  // The header is drawn from the same session as the Tokens entry: counted once, not waited for.
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Tokens' })).toBeVisible();
  expect(await appsLink(page).count()).toBe(0);
});

test('archiving asks first; then shop reads archived, has no Archive action, and leaves the switcher', async ({
  page,
}, testInfo) => {
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  await appsLink(page).click();
  const archive = appRow(page, 'shop').getByRole('button', { name: 'Archive Shop' });
  await archive.click();
  const dialog = page.getByRole('dialog', { name: 'Archive an app' });
  await expect(dialog).toContainText('Its devices stay served');
  await expect(dialog).toContainText('Nothing can be published to it or changed in it');
  await capture(page, testInfo, 'apps-archive-dialog');
  // Cancelled: nothing happened.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(appRow(page, 'shop')).toContainText('active');

  await archive.click();
  await dialog.getByRole('button', { name: 'Archive app' }).click();
  await expect(dialog).toBeHidden();
  await expect(appRow(page, 'shop')).toContainText('archived');
  await expect(appRow(page, 'shop').getByRole('button')).toHaveCount(0);
  // The switcher lists the apps the session sees: archived ones are not among them.
  await expect(page.locator('header select')).toHaveCount(0);
  await expect(page.locator('header .app-name')).toHaveText('Default app');
  await page.reload();
  await expect(appRow(page, 'shop')).toContainText('archived');
});
