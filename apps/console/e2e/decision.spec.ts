import { randomUUID } from 'node:crypto';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { capture, chooseLanguage, inEnglish, signIn, signOut, sticksOut } from './support/console-page.js';
import { stackForFile } from './support/spec-stack.js';
import { deviceCheck, type Stack } from './support/stack.js';

/**
 * The release console at the moment of decision: what an operator sees before widening,
 * completing, reverting or rolling back (health, halt rule, about how many devices), which
 * controls each role is shown, operator tokens for admins, and a new server's first screen. Two
 * server instances on one PostgreSQL database; the tests run in order on one stack.
 */
let stack: Stack;
stackForFile('decision', (started) => {
  stack = started;
});
const ids: Record<string, string> = {};

const trackUrl = (runtimeVersion: string) => `${stack.a.url}/console/#/track/production/android/${runtimeVersion}`;
const entry = (page: Page, id: string) => page.locator(`[data-entry="${id}"]`);

/** Holds the answers of `path` until the returned function is called: a page's loading state, for certain. */
async function holdAnswers(page: Page, path: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const passed: Array<Promise<void>> = [];
  const pattern = `**${path}*`;
  await page.route(pattern, (route) => {
    const passing = held.then(() => route.continue());
    passed.push(passing);
    return passing;
  });
  return async () => {
    release();
    await Promise.all(passed);
    await page.unroute(pattern);
  };
}

/** The console API's own answer (as the viewer): what the page shows once the reports are written. */
async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.a.url}${path}`, {
    headers: { authorization: `Bearer ${stack.a.tokens.viewer}` },
  });
  return (await response.json()) as T;
}
const trackDevices = async (runtimeVersion: string) =>
  (
    await api<{ devices: { last7d: number } }>(
      `/api/console/history?channel=production&platform=android&runtimeVersion=${runtimeVersion}`,
    )
  ).devices.last7d;
const received = async (releaseId: string) =>
  (await api<{ health: { received: number } }>(`/api/console/releases/${releaseId}`)).health.received;

test('a new server says no release exists yet and how to publish the first; pages show that they are loading', async ({
  page,
}, testInfo) => {
  // In Korean, the console's first language: what a new team sees first.
  await page.goto(`${stack.a.url}/console/`);
  await chooseLanguage(page, 'ko');
  await page.getByLabel('운영자 토큰').fill(stack.a.tokens.releaser!);
  const answer = await holdAnswers(page, '/api/console/tracks');
  await page.getByRole('button', { name: '로그인' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '트랙' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '트랙을 불러오는 중' })).toBeVisible();
  await answer();
  await expect(page.getByRole('heading', { name: '아직 릴리스가 없어요' })).toBeVisible();
  await expect(page.getByText('npx ferry publish --channel production')).toBeVisible();
  await expect(page.getByText('필터에 맞는 트랙이 없어요')).toHaveCount(0);
  await capture(page, testInfo, 'ko-empty-state');

  // The first publish replaces the empty state live.
  ids.first = await stack.publish('1.0.0', 'First release');
  await expect(page.getByRole('link', { name: 'production · android · 1.0.0' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '아직 릴리스가 없어요' })).toHaveCount(0);

  const history = await holdAnswers(page, '/api/console/history');
  await page.getByRole('link', { name: 'production · android · 1.0.0' }).click();
  await expect(page.getByRole('status').filter({ hasText: '트랙 이력을 불러오는 중' })).toBeVisible();
  await history();
  await expect(entry(page, ids.first)).toContainText('First release');
  await expect(page.getByRole('status').filter({ hasText: '불러오는 중' })).toHaveCount(0);
});

test('Korean first, English on request: the switch is remembered across a reload and a sign-in', async ({
  browser,
}) => {
  // A first visit, with nothing chosen yet.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.a.url}/console/`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko');
  await expect(page).toHaveTitle('Ferry 릴리스 콘솔');
  await expect(page.getByRole('heading', { level: 1, name: 'Ferry 릴리스 콘솔' })).toBeVisible();
  await expect(page.getByRole('button', { name: '한국어' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ferry release console' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(page.getByLabel('Operator token')).toBeVisible();
  await expect(page).toHaveTitle('Ferry release console');
  await page.getByLabel('Operator token').fill(stack.a.tokens.viewer!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tracks' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');

  // Back to Korean from the header: every word on the page follows, and the choice is kept.
  await page.getByRole('button', { name: '한국어' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '트랙' })).toBeVisible();
  await expect(page.getByRole('link', { name: '감사 로그' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: '트랙' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: '실패율' })).toBeVisible();
  await expectAccessible(page);
  await context.close();
});

test('update policies read as the contracts mean them: 1 applies at once, 3 at the next launch', async ({ page }) => {
  ids.immediate = await stack.publish('policy', 'Policy Immediate', [], { OTA_UPDATE_POLICY: '1' });
  ids.default = await stack.publish('policy', 'Policy Default', [], { OTA_UPDATE_POLICY: '3' });
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await page.goto(trackUrl('policy'));
  await expect(entry(page, ids.immediate)).toContainText('Immediate (1): applied as soon as it is downloaded');
  await expect(entry(page, ids.default)).toContainText('Default (3): applied silently at the next cold launch');
  await page.goto(`${stack.a.url}/console/#/release/${ids.immediate}`);
  await expect(page.locator('dd').filter({ hasText: /^Immediate \(1\)/ })).toHaveText(
    'Immediate (1): applied as soon as it is downloaded: the app reloads',
  );
});

test('a release 11 of 11 devices reported failed warns next to its controls, and widening waits for an explicit acknowledgement', async ({
  page,
}) => {
  ids.broken = await stack.publish('5.0.0', 'Broken build', ['--rollout', '50']);
  for (let i = 0; i < 11; i++) await deviceCheck(stack.b.url, '5.0.0', randomUUID(), { failed: ids.broken });
  await expect.poll(() => received(ids.broken!)).toBe(11);
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.goto(trackUrl('5.0.0'));
  const release = entry(page, ids.broken);
  await expect(release.locator('.rollout-health')).toContainText('Failure rate100.0 %');
  await expect(release.locator('.rollout-health')).toContainText('none: the rollout never halts by itself');
  const warning = release.locator('.risk .warning');
  await expect(warning).toContainText('11 of 11 devices that received this release reported it failed (100.0 %)');
  // Nothing is pre-filled: a 50 % rollout would otherwise offer 100 %.
  await expect(release.getByLabel('New share (%)')).toHaveValue('');
  await expect(release.getByRole('button', { name: 'Change share' })).toBeDisabled();

  await release.getByLabel('New share (%)').fill('100');
  await release.getByRole('button', { name: 'Change share' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the rollout share' });
  await expect(dialog.locator('.warning')).toContainText('11 of 11 devices');
  const confirm = dialog.getByRole('button', { name: 'Set to 100 %' });
  await expect(confirm).toBeDisabled();
  await capture(page, test.info(), 'widen-past-failures');
  const acknowledgement = dialog.getByRole('checkbox', { name: /I have read the failures \(11 of 11 devices\)/ });
  await acknowledgement.check();
  await expect(confirm).toBeEnabled();
  // Closing forgets the acknowledgement: the next attempt asks again.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await release.getByRole('button', { name: 'Complete' }).click();
  const complete = page.getByRole('dialog', { name: 'Complete the rollout' });
  await expect(complete.getByRole('button', { name: 'Complete rollout' })).toBeDisabled();
  await complete.getByRole('checkbox').check();
  await complete.getByRole('button', { name: 'Complete rollout' }).click();
  await expect(complete).toBeHidden();
  await expect(release).toContainText('complete 100 %');
});

test('every dialog says what will happen and to about how many devices', async ({ page }) => {
  ids.base = await stack.publish('6.0.0', 'Everyone has this');
  for (let i = 0; i < 8; i++) await deviceCheck(stack.b.url, '6.0.0', randomUUID(), { current: ids.base });
  await expect.poll(() => trackDevices('6.0.0')).toBe(8);
  ids.staged = await stack.publish('6.0.0', 'Staged to a quarter', ['--rollout', '25']);
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.goto(trackUrl('6.0.0'));
  const staged = entry(page, ids.staged);
  await expect(staged.locator('.warning')).toHaveCount(0);
  await staged.getByLabel('New share (%)').fill('50');
  await staged.getByRole('button', { name: 'Change share' }).click();
  const widen = page.getByRole('dialog', { name: 'Change the rollout share' });
  await expect(widen).toContainText('Devices on this track get the release at 50 % instead of 25 %.');
  await expect(widen).toContainText('About 4 devices will get this release on their next check.');
  await expect(widen).toContainText('the 8 devices seen running a release of this track in the last 7 days');
  await expect(widen.getByRole('checkbox')).toHaveCount(0);
  await capture(page, test.info(), 'confirm-dialog');
  await widen.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Roll back to embedded' }).click();
  const embedded = page.getByRole('dialog', { name: 'Roll back to the embedded bundle' });
  await expect(embedded).toContainText('About 8 devices on this track will get this on their next check.');
  await embedded.getByRole('button', { name: 'Cancel' }).click();

  await entry(page, ids.base).getByRole('button', { name: 'Roll back to this' }).click();
  await expect(page.getByRole('dialog', { name: 'Roll back to an earlier release' })).toContainText(
    'About 8 devices on this track',
  );
});

test('a halted rollout is reverted from the console, and its devices go back to the release before it', async ({
  page,
}) => {
  ids.stable = await stack.publish('7.0.0', 'Stable');
  ids.risky = await stack.publish('7.0.0', 'Risky', [
    '--rollout',
    '50',
    '--halt-on-failure-rate',
    '0.5',
    '--halt-min-devices',
    '2',
  ]);
  for (let i = 0; i < 2; i++) await deviceCheck(stack.b.url, '7.0.0', randomUUID(), { failed: ids.risky });
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.goto(trackUrl('7.0.0'));
  const risky = entry(page, ids.risky);
  await expect(risky).toContainText('halted 50 %');
  await expect(risky.locator('.risk .warning')).toContainText('Past its halt rule.');
  await expect(risky.locator('.rollout-health')).toContainText('halts at 50 % failures once 2 devices received it');
  await risky.getByRole('button', { name: 'Revert' }).click();
  const revert = page.getByRole('dialog', { name: 'Revert the rollout' });
  await expect(revert).toContainText('About 2 devices that received this release will go back on their next check.');
  await revert.getByRole('button', { name: 'Revert rollout' }).click();
  await expect(revert).toBeHidden();
  await expect(page.locator('.history > li').first()).toContainText(`rollback of ${ids.stable.slice(0, 8)}`);
  await expect(risky).toContainText('reverted');
  await expect(risky.getByRole('button', { name: 'Revert' })).toHaveCount(0);
});

test('each role sees only the controls it may use, and a refusal is shown in the server’s words', async ({ page }) => {
  // A viewer: no action anywhere, no tokens page.
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await expect(page.getByRole('link', { name: 'Tokens' })).toHaveCount(0);
  for (const path of [trackUrl('6.0.0'), `${stack.a.url}/console/#/release/${ids.staged}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('.rollout-health')).toBeVisible();
    await expect(
      page.getByRole('main').getByRole('button', { name: /Roll back|Change share|Complete|Revert/ }),
    ).toHaveCount(0);
    await expect(page.getByRole('main').getByLabel('New share (%)')).toHaveCount(0);
  }
  await page.goto(`${stack.a.url}/console/#/tokens`);
  await expect(page.getByRole('heading', { level: 1, name: 'Tracks' })).toBeVisible();
  await signOut(page);

  // A releaser acts, but manages no tokens.
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await expect(page.getByRole('link', { name: 'Tokens' })).toHaveCount(0);
  await page.goto(trackUrl('6.0.0'));
  await expect(page.getByRole('button', { name: 'Roll back to embedded' })).toBeVisible();

  // The server has the last word: a click that reaches it as a viewer's shows its refusal as it words it.
  const refusal = await fetch(`${stack.a.url}/api/updates/directives`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.a.tokens.viewer}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      channel: 'production',
      platform: 'android',
      runtimeVersion: '6.0.0',
      type: 'rollBackToEmbedded',
    }),
  });
  expect(refusal.status).toBe(403);
  const { error } = (await refusal.json()) as { error: { message: string } };
  await page.route('**/api/updates/directives', (route) =>
    route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${stack.a.tokens.viewer}` } }),
  );
  await page.getByRole('button', { name: 'Roll back to embedded' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll back to the embedded bundle' });
  await dialog.getByRole('button', { name: 'Roll back to embedded' }).click();
  await expect(dialog.getByRole('alert')).toContainText(error.message);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.unroute('**/api/updates/directives');
});

/** A fresh browser context signed in with `token`: another person at another desk. */
async function signedInElsewhere(browser: { newContext(): Promise<BrowserContext> }, token: string) {
  const context = await browser.newContext();
  await inEnglish(context);
  const other = await context.newPage();
  await signIn(other, stack.a.url, token);
  return { context, page: other };
}

test('an admin creates a token from the keyboard alone, sees it once, and revokes it', async ({
  page,
  browser,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.a.url });
  await signIn(page, stack.a.url, stack.a.tokens.admin!);
  const tokensLink = page.getByRole('link', { name: 'Tokens' });
  await tokensLink.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Operator tokens' })).toBeVisible();
  await expect(page.locator('tr[data-token="ada"]')).toContainText('you');

  // Name, role, create: typed and chosen with the keyboard.
  await page.getByLabel('Name').focus();
  await page.keyboard.type('tess');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Role')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByLabel('Role')).toHaveValue('releaser');
  await expect(page.getByText('A releaser may read releases')).toBeVisible();
  // The app: the one in view unless chosen otherwise (apps.spec.ts chooses others).
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('App', { exact: true })).toBeFocused();
  await expect(page.getByLabel('App', { exact: true })).toHaveValue('default');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Create token' })).toBeFocused();
  await page.keyboard.press('Enter');
  const created = page.getByRole('region', { name: 'Token for tess (releaser)' });
  await expect(created).toContainText('This is the only time the token is shown.');
  const token = await created.getByLabel('Token', { exact: true }).inputValue();
  expect(token).toMatch(/^ferry_op_/);
  await created.getByRole('button', { name: 'Copy token for tess' }).focus();
  await page.keyboard.press('Enter');
  await expect(created.getByRole('button', { name: 'Copy token for tess' })).toContainText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await capture(page, test.info(), 'token-created');
  await created.getByRole('button', { name: 'I have stored it' }).focus();
  await page.keyboard.press('Enter');
  await expect(created).toHaveCount(0);
  expect(await page.content()).not.toContain(token);
  await page.reload();
  await expect(page.locator('tr[data-token="tess"]')).toContainText('releaser');
  await expect(page.locator('tr[data-token="tess"] td[data-label="App"]')).toHaveText('Default app');
  expect(await page.content()).not.toContain(token);

  // The token works: its owner signs in elsewhere.
  const tess = await signedInElsewhere(browser, token);
  await expect(tess.page.locator('.who')).toContainText('tess');

  // A name is never used twice: the server says so, in words.
  await page.getByLabel('Name').fill('tess');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('alert')).toContainText('An operator token named tess exists already');

  // Revoke, from the keyboard: the token stops working at once.
  await page.getByRole('button', { name: 'Revoke tess' }).focus();
  await page.keyboard.press('Enter');
  const revoke = page.getByRole('dialog', { name: 'Revoke an operator token' });
  await expect(revoke).toContainText('tess');
  await revoke.getByRole('button', { name: 'Revoke token' }).focus();
  await page.keyboard.press('Enter');
  await expect(revoke).toBeHidden();
  await expect(page.locator('tr[data-token="tess"]')).toContainText('revoked');
  await expect(page.getByRole('button', { name: 'Revoke tess' })).toHaveCount(0);
  const refused = await fetch(`${stack.a.url}/api/console/tracks`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status).toBe(401);
  await tess.page.reload();
  await expect(tess.page.getByLabel('Operator token')).toBeVisible();
  await tess.context.close();
});

test('times are the operator’s local time, with UTC on hover', async ({ browser }) => {
  const context = await browser.newContext({ timezoneId: 'Asia/Seoul', viewport: { width: 1440, height: 900 } });
  await inEnglish(context);
  const page = await context.newPage();
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await page.goto(`${stack.a.url}/console/#/release/${ids.first}`);
  const created = page.locator('dd time').first();
  const iso = (await created.getAttribute('datetime'))!;
  const expected = await page.evaluate(
    (at) => new Date(at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Seoul' }),
    iso,
  );
  await expect(created).toHaveText(expected);
  await expect(created).toHaveAttribute('title', `${iso.slice(0, 16).replace('T', ' ')} UTC`);
  await context.close();
});

test('no page scrolls sideways on a 390 px phone, in either language; the Korean pages at 1440 and 390 px', async ({
  page,
}, testInfo) => {
  // A halted rollout with failures on screen, for the track page and its dialog.
  ids.halted = await stack.publish('8.0.0', 'Checkout redesign', [
    '--rollout',
    '20',
    '--halt-on-failure-rate',
    '0.1',
    '--halt-min-devices',
    '3',
  ]);
  for (let i = 0; i < 3; i++) await deviceCheck(stack.b.url, '8.0.0', randomUUID(), { failed: ids.halted });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${stack.a.url}/console/`);
  const pages: Array<[string, string]> = [
    ['tracks', `${stack.a.url}/console/#/tracks`],
    ['track', trackUrl('8.0.0')],
    ['release', `${stack.a.url}/console/#/release/${ids.halted}`],
    ['release-reverted', `${stack.a.url}/console/#/release/${ids.risky}`],
    ['audit', `${stack.a.url}/console/#/audit`],
    ['tokens', `${stack.a.url}/console/#/tokens`],
    ['apps', `${stack.a.url}/console/#/apps`],
  ];
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  for (const language of ['ko', 'en'] as const) {
    await chooseLanguage(page, language);
    const token = page.locator('input[type="password"]');
    await expect(token).toBeVisible();
    if (language === 'ko') await capture(page, testInfo, 'ko-sign-in');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await sticksOut(page, 390), `${language} sign-in`).toEqual([]);
    expect(await scrollWidth(), `${language} sign-in`).toBeLessThanOrEqual(390);
    await token.fill(stack.a.tokens.admin!);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('navigation')).toBeVisible();
    for (const [name, url] of pages) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('.loading')).toHaveCount(0);
      if (name === 'track') await expect(entry(page, ids.halted).locator('.risk .warning')).toBeVisible();
      expect(await sticksOut(page, 390), `${language} ${name}`).toEqual([]);
      expect(await scrollWidth(), `${language} ${name}`).toBeLessThanOrEqual(390);
      if (language === 'ko') await capture(page, testInfo, `ko-${name}`);
      await page.setViewportSize({ width: 390, height: 844 });
    }
    if (language === 'ko') {
      // The dialog that widens a halted rollout: the warning, the reach, the acknowledgement.
      await page.goto(trackUrl('8.0.0'));
      const halted = entry(page, ids.halted);
      await halted.getByLabel('새 비율 (%)').fill('50');
      await halted.getByRole('button', { name: '이 비율로 재개' }).click();
      await expect(page.getByRole('dialog', { name: '배포 비율 바꾸기' })).toBeVisible();
      await capture(page, testInfo, 'ko-widen-dialog');
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 390, height: 844 });
    }
    await page
      .locator('header')
      .getByRole('button', { name: language === 'ko' ? '로그아웃' : 'Sign out' })
      .click();
  }
});
