import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { capture, signIn, signOut } from './support/console-page.js';
import { stackForFile } from './support/spec-stack.js';
import { deviceCheck, type Stack } from './support/stack.js';

/**
 * The release console end to end (issue 19): two server instances on one PostgreSQL database;
 * releases published with `ferry publish`; an operator watches and acts in Debian's Chromium.
 * One stack for the file; the tests run in order and build on each other's releases.
 */
let stack: Stack;
stackForFile('console', (started) => {
  stack = started;
});
const ids: Record<string, string> = {};

const row = (page: Page, runtimeVersion: string) =>
  page.locator(`tr[data-track="production/android/${runtimeVersion}"]`);

/** Marks the document: if it is still marked later, the page was never reloaded. */
const markDocument = (page: Page) => page.evaluate(() => document.documentElement.setAttribute('data-e2e-mark', '1'));
const expectSameDocument = (page: Page) => expect(page.locator('html[data-e2e-mark="1"]')).toHaveCount(1);

test('a viewer signs in, sees every track, and a release published with the CLI appears live', async ({
  page,
}, testInfo) => {
  ids.stable = await stack.publish('1.0.0', 'Stable build');
  // The sign-in page, before any session.
  await page.goto(`${stack.a.url}/console/`);
  await expect(page.getByLabel('Operator token')).toBeVisible();
  await capture(page, testInfo, 'sign-in');

  // The release token is no console login.
  await page.getByLabel('Operator token').fill(stack.a.releaseToken);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('not a console login');

  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await expect(page.getByText('vera')).toBeVisible();
  await expect(row(page, '1.0.0')).toContainText('Stable build');
  await expect(row(page, '1.0.0')).toContainText('complete');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();

  await markDocument(page);
  ids.live = await stack.publish('1.0.0', 'Live publish');
  await expect(row(page, '1.0.0')).toContainText('Live publish');
  await expectSameDocument(page);
  await expect(page.getByRole('status')).toContainText('production · android · 1.0.0 changed');

  // A viewer may look but not act: the track's page offers no action (decision.spec.ts covers the rest).
  await page.getByRole('link', { name: 'production · android · 1.0.0' }).click();
  await expect(page.locator('[data-entry]')).toHaveCount(2);
  await expect(page.getByRole('main').getByRole('button', { name: /Roll back/ })).toHaveCount(0);
  await signOut(page);
});

test('a release’s page shows its bundle patch from the track’s previous release, against the full download', async ({
  page,
}, testInfo) => {
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await page.goto(`${stack.a.url}/console/#/release/${ids.live}`);
  await expect(page.getByRole('heading', { level: 1, name: `Release ${ids.live!.slice(0, 8)}` })).toBeVisible();
  const patches = page.getByRole('table', { name: 'Bundle patches' });
  const fromStable = patches.locator(`tr[data-patch-base="${ids.stable}"]`);
  // Queued with the publish, made in the background: the page shows what it read when it opened,
  // so it is opened again until the patch is made.
  await expect(async () => {
    await page.reload();
    await expect(fromStable).toBeVisible();
    expect(await fromStable.locator('td[data-label="State"]').textContent()).toBe('ready');
  }).toPass();
  await expect(patches.locator('tbody tr')).toHaveCount(1);
  await expect(fromStable.locator('td[data-label="From"]')).toHaveText(`release ${ids.stable!.slice(0, 8)}`);
  await expect(fromStable.locator('td[data-label="Patch"]')).toHaveText(/^\d+ B$/);
  await expect(fromStable.locator('td[data-label="Full download (brotli)"]')).toHaveText(/^\d+(\.\d)? (B|KB)$/);
  await expect(fromStable.locator('td[data-label="Patch ÷ full"]')).toHaveText(/^\d+\.\d %$/);
  await capture(page, testInfo, 'release-patches');

  // The base is a link to its own page; the track's first release has nothing to patch from.
  await fromStable.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: `Release ${ids.stable!.slice(0, 8)}` })).toBeVisible();
  await expect(page.getByText('No patches to this launch bundle.')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Bundle patches' })).toHaveCount(0);
});

test('a releaser widens a rollout, from the keyboard alone', async ({ page }, testInfo) => {
  ids.staged = await stack.publish('2.0.0', 'Staged change', ['--rollout', '20']);
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await expect(row(page, '2.0.0')).toContainText('running');
  await expect(row(page, '2.0.0')).toContainText('20 %');

  // Sort by rollout share and filter by state: the staged track is the only running one.
  await page.getByRole('button', { name: 'Rollout' }).click();
  await page.getByLabel('State').selectOption('running');
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await capture(page, testInfo, 'tracks');
  await page.getByLabel('State').selectOption('');

  // Keyboard only: reach the track link, open it, set the share, confirm in the dialog.
  const link = page.getByRole('link', { name: 'production · android · 2.0.0' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'production · android · 2.0.0' })).toBeVisible();
  await page.getByLabel('New share (%)').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('50');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Change share' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change the rollout share' });
  await expect(dialog).toContainText('production · android · 2.0.0');
  await expect(dialog).toContainText(ids.staged);
  await capture(page, testInfo, 'confirm-dialog');
  await dialog.getByRole('button', { name: 'Set to 50 %' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.locator(`[data-entry="${ids.staged}"]`)).toContainText('running 50 %');
  await capture(page, testInfo, 'track-history');

  // Three devices run the staged release, one of them reported it failed: the release page's charts.
  const devices = [randomUUID(), randomUUID(), randomUUID()];
  for (const device of devices) await deviceCheck(stack.a.url, '2.0.0', device, { current: ids.staged });
  await deviceCheck(stack.a.url, '2.0.0', devices[0]!, { failed: ids.staged });

  // The release page: assets, the manifest as clients get it, its signature verifying.
  await page.locator(`[data-entry="${ids.staged}"]`).getByRole('link').first().click();
  // Device reports are written in batches: once the API counts them, the page shows them.
  await expect
    .poll(async () => {
      const response = await fetch(`${stack.a.url}/api/console/releases/${ids.staged}`, {
        headers: { authorization: `Bearer ${stack.a.tokens.viewer}` },
      });
      return ((await response.json()) as { health: { received: number } }).health.received;
    })
    .toBe(3);
  await page.reload();
  await expect(page.getByText('New devices: 3 devices')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `Release ${ids.staged.slice(0, 8)}` })).toBeVisible();
  await expect(page.getByText('launch bundle', { exact: true })).toBeVisible();
  await expect(page.getByText('signature verifies').first()).toBeVisible();
  await expect(page.getByRole('img', { name: /New devices per day/ })).toBeVisible();
  await capture(page, testInfo, 'release-detail');
});

test('a releaser rolls a track back to an earlier release, then to the embedded bundle; the other instance serves it', async ({
  page,
}, testInfo) => {
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.getByRole('link', { name: 'production · android · 1.0.0' }).click();
  const stable = page.locator(`[data-entry="${ids.stable}"]`);
  await stable.getByRole('button', { name: 'Roll back to this' }).click();
  const rollback = page.getByRole('dialog', { name: 'Roll back to an earlier release' });
  await expect(rollback).toContainText('production · android · 1.0.0');
  await expect(rollback).toContainText(ids.stable!);
  await rollback.getByRole('button', { name: 'Roll back' }).click();
  await expect(page.locator('.history > li').first()).toContainText(`rollback of ${ids.stable!.slice(0, 8)}`);
  await expect(page.locator('.history > li').first()).toContainText('active');

  await page.getByRole('button', { name: 'Roll back to embedded' }).click();
  const embedded = page.getByRole('dialog', { name: 'Roll back to the embedded bundle' });
  await expect(embedded).toContainText('production · android · 1.0.0');
  await embedded.getByRole('button', { name: 'Roll back to embedded' }).click();
  await expect(page.locator('.history > li').first()).toContainText('roll back to embedded');
  await expect(page.locator('.history > li').first()).toContainText('Directive by operator:rita');
  await capture(page, testInfo, 'track-history-rollbacks');

  // Instance B serves the directive too (PostgreSQL NOTIFY reached its manifest cache).
  await expect
    .poll(async () => {
      const response = await fetch(`${stack.b.url}/api/updates/manifest`, {
        headers: {
          accept: 'multipart/mixed',
          'expo-protocol-version': '1',
          'expo-platform': 'android',
          'expo-runtime-version': '1.0.0',
          'expo-channel-name': 'production',
        },
      });
      return (await response.text()).includes('rollBackToEmbedded');
    })
    .toBe(true);

  // Under the directive no release is active: the one it replaced can be restored from here too.
  const replaced = page.locator('.history > li').nth(1);
  await replaced.getByRole('button', { name: 'Roll back to this' }).click();
  await page
    .getByRole('dialog', { name: 'Roll back to an earlier release' })
    .getByRole('button', { name: 'Roll back' })
    .click();
  await expect(page.locator('.history > li').first()).toContainText('rollback of');
  await expect(page.locator('.history > li').first()).toContainText('active');
});

test('a rollout halted by device reports on the other instance shows up live; the audit log names who did what', async ({
  page,
}, testInfo) => {
  ids.risky = await stack.publish('3.0.0', 'Risky change', [
    '--rollout',
    '50',
    '--halt-on-failure-rate',
    '0.5',
    '--halt-min-devices',
    '2',
  ]);
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await expect(row(page, '3.0.0')).toContainText('running');
  await expect(page.getByText('Live', { exact: true })).toBeVisible();
  await markDocument(page);
  // Two devices report the release failed, to instance B only.
  for (const device of [randomUUID(), randomUUID()]) {
    expect(await deviceCheck(stack.b.url, '3.0.0', device, { failed: ids.risky })).toBeLessThan(500);
  }
  await expect(row(page, '3.0.0')).toContainText('halted');
  await expectSameDocument(page);

  // The native-change guard: a changed fingerprint is refused (and counted), unless bypassed.
  await stack.publish('4.0.0', 'Before the native change');
  const changed = { FERRY_E2E_FINGERPRINT: 'fp-console-e2e-android-native-change' };
  await expect(stack.publish('4.0.0', 'Native change', [], changed)).rejects.toThrow(/native|fingerprint/i);
  await stack.publish('4.0.0', 'Native change, bypassed', [], { ...changed, OTA_ALLOW_NATIVE_CHANGE: '1' });
  await expect(row(page, '4.0.0')).toContainText('Native change, bypassed');
  await expect(row(page, '4.0.0').locator('td[data-label="Guard blocks"]')).toHaveText(/^1\s*1 bypassed$/);
  await capture(page, testInfo, 'tracks-all-states');

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  await expect(page.locator('[data-type="rollout.halted"]')).toHaveCount(1);
  await expect(page.locator('[data-type="rollout.changed"]').first()).toContainText('operator:rita');
  await page.getByLabel('Actor').fill('operator:rita');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('[data-type="rollout.halted"]')).toHaveCount(0);
  await expect(page.locator('[data-type="directive.created"]')).toHaveCount(1);
  await page.getByLabel('Actor').fill('');
  await page.getByRole('button', { name: 'Apply' }).click();
  // Guard bypasses stand out.
  await expect(page.locator('[data-type="guard.bypassed"]')).toContainText('Guard bypass');
  await expect(page.locator('[data-type="guard.blocked"]')).toContainText('Guard block');
  await capture(page, testInfo, 'audit-log');
  await page.getByLabel('Type').fill('guard.bypassed,guard.blocked');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('.audit > li')).toHaveCount(2);
  await expectAccessible(page);
});
