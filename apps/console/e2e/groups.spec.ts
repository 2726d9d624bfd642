import { randomUUID } from 'node:crypto';
import type { AuditEventPage, ConsoleGroup, ConsoleTracksResponse } from '@ferry/contracts';
import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { EN } from '../src/i18n/catalogue-en.js';
import { capture, chooseLanguage, signIn, signOut } from './support/console-page.js';
import { stackForFile } from './support/spec-stack.js';
import type { Stack } from './support/stack.js';

/**
 * Release groups in the console: iOS and Android of one publish as one row, acted on at once
 * through the group endpoints (a refusal names the platform), promoted to another channel through
 * the guard; and the audit log newest first, a page at a time over 20 000 events. Two server
 * instances on one PostgreSQL database; the tests run in order on one stack.
 */
let stack: Stack;
stackForFile('groups', (started) => {
  stack = started;
});
const groups = { checkout: '', dev: '', native: '', ko: '' };

async function api<T>(path: string): Promise<T> {
  const response = await fetch(`${stack.a.url}${path}`, {
    headers: { authorization: `Bearer ${stack.a.tokens.viewer}` },
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

/** `ferry publish` of both platforms as one group; resolves with the group's id. */
async function publishGroup(
  runtimeVersion: string,
  message: string,
  options: { channel?: string; flags?: string[]; fingerprint?: string } = {},
): Promise<string> {
  const channel = options.channel ?? 'production';
  await stack.publish(runtimeVersion, message, options.flags ?? [], {
    FERRY_E2E_PLATFORM: 'all',
    FERRY_E2E_CHANNEL: channel,
    ...(options.fingerprint ? { FERRY_E2E_FINGERPRINT: options.fingerprint } : {}),
  });
  const { tracks } = await api<ConsoleTracksResponse>('/api/console/tracks');
  const mine = tracks.filter((t) => t.channel === channel && t.runtimeVersion === runtimeVersion);
  expect(mine.map((t) => t.platform).sort()).toEqual(['android', 'ios']);
  const groupId = mine[0]?.activeGroupId;
  expect(groupId).toBeTruthy();
  expect(mine.every((t) => t.activeGroupId === groupId)).toBe(true);
  return groupId as string;
}

const group = (groupId: string) => api<ConsoleGroup>(`/api/console/groups/${groupId}`);

/** A device of `platform` on production that runs `current`: seen on the track, and it received the release. */
async function deviceRuns(platform: string, runtimeVersion: string, current: string): Promise<void> {
  const response = await fetch(`${stack.b.url}/api/updates/manifest`, {
    headers: {
      accept: 'multipart/mixed,application/expo+json,application/json',
      'expo-protocol-version': '1',
      'expo-platform': platform,
      'expo-runtime-version': runtimeVersion,
      'expo-channel-name': 'production',
      'eas-client-id': randomUUID(),
      'expo-current-update-id': current,
    },
  });
  await response.arrayBuffer();
}

/** Tabs from where focus is until `target` has it (keyboard alone), failing after `limit` presses. */
async function tabTo(page: Page, target: ReturnType<Page['locator']>, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the target');
}

test('iOS and Android of one publish are one row; the whole group is widened from the keyboard alone', async ({
  page,
}, testInfo) => {
  groups.checkout = await publishGroup('7.0.0', 'Checkout redesign', { flags: ['--rollout', '10'] });
  const members = (await group(groups.checkout)).releases;
  // Devices seen on each platform's track, half of them already on the release: the dialog's estimate.
  for (const member of members) {
    for (let i = 0; i < 4; i++) await deviceRuns(member.platform, '7.0.0', member.releaseId);
  }

  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  const row = page.locator(`tr[data-group="${groups.checkout}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: 'Track production · ios · 7.0.0' })).toHaveText('iOS');
  await expect(row.getByRole('link', { name: 'Track production · android · 7.0.0' })).toHaveText('Android');
  // One row, not one per platform.
  await expect(page.locator('tr[data-track$="/7.0.0"]')).toHaveCount(0);
  await expect(row.locator('td[data-label="Rollout"]')).toHaveText('10 %');
  await capture(page, testInfo, 'group-row');

  // Keyboard alone, from the row's link to the group's page, through the dialog to the change.
  const link = row.getByRole('link', { name: /^Release group / });
  await tabTo(page, link);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: /^Release group / })).toBeVisible();
  for (const platform of ['ios', 'android']) await expect(page.locator(`[data-platform="${platform}"]`)).toBeVisible();
  const share = page.getByLabel('New share (%)');
  await tabTo(page, share);
  await page.keyboard.type('50');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Set share on all platforms' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Change the rollout of every platform' });
  await expect(dialog).toBeVisible();
  // Both platforms, and about how many devices in all (every device seen already runs it: none more).
  await expect(dialog).toContainText('iOS · Android: each reaches 50 % of its devices.');
  await expect(dialog.locator('dt')).toHaveText(['iOS', 'Android']);
  await expect(dialog.locator('.reach')).toHaveText(EN.reach.shareNone);
  await capture(page, testInfo, 'group-widen-dialog');
  await tabTo(page, dialog.getByRole('button', { name: 'Set to 50 %' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.locator('[data-platform] .badge.state-running')).toHaveText(['running 50 %', 'running 50 %']);
  expect((await group(groups.checkout)).releases.map((r) => r.rollout?.percent)).toEqual([50, 50]);
  await capture(page, testInfo, 'group-page');
});

test('a group action one platform refuses changes nothing and says which platform refused', async ({ page }) => {
  // A later publish of Android alone: the group's Android release is no longer the newest of its
  // track; and iOS has no release before the group's to go back to.
  await stack.publish('7.0.0', 'Android hotfix');
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.goto(`${stack.a.url}/console/#/group/${groups.checkout}`);
  await expect(page.locator('[data-platform="android"]')).toContainText('replaced');
  await page.getByRole('button', { name: 'Roll back all platforms', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll every platform back to the release before' });
  await expect(dialog).toContainText('iOS');
  await dialog.getByRole('button', { name: 'Roll back' }).click();
  const refusal = dialog.getByRole('alert');
  await expect(refusal).toContainText('Refused on iOS: nothing changed on any platform.');
  await expect(refusal).toContainText('NO_EARLIER_RELEASE');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  // Nothing changed on iOS either.
  const ios = (await group(groups.checkout)).releases.find((r) => r.platform === 'ios');
  expect(ios?.active).toBe(true);
});

test('a group is promoted from development to production with a rollout; a guard refusal is shown in words', async ({
  page,
}, testInfo) => {
  groups.dev = await publishGroup('8.0.0', 'Search filters', { channel: 'development' });
  await signIn(page, stack.a.url, stack.a.tokens.releaser!);
  await page.goto(`${stack.a.url}/console/#/group/${groups.dev}`);
  await page.getByRole('button', { name: 'Promote…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Promote to another channel' });
  await expect(dialog.getByLabel('Target channel')).toHaveValue('production');
  await dialog.getByLabel('Rollout % (optional)').fill('20');
  await expect(dialog).toContainText('It starts at 20 %');
  await capture(page, testInfo, 'promote-dialog');
  await dialog.getByRole('button', { name: 'Promote to production' }).click();
  await expect(dialog).toBeHidden();
  const promoted = page.locator('.promoted');
  await expect(promoted).toContainText('Promoted to production:');
  await expect(promoted.locator('li')).toHaveCount(2);
  await expect(promoted).toContainText('production · ios · 8.0.0');
  await expect(promoted).toContainText('production · android · 8.0.0');
  // The new releases are a group of their own on production, at 20 %.
  const { tracks } = await api<ConsoleTracksResponse>('/api/console/tracks');
  const production = tracks.filter((t) => t.channel === 'production' && t.runtimeVersion === '8.0.0');
  expect(production.map((t) => t.rolloutPercent)).toEqual([20, 20]);
  await promoted.getByRole('link', { name: /^new group / }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Release group / })).toBeVisible();
  await expect(page.locator('[data-platform] .badge.state-running')).toHaveText(['running 20 %', 'running 20 %']);

  // A development group whose native fingerprint differs from production's: the guard refuses it.
  groups.native = await publishGroup('8.0.0', 'Camera module', { channel: 'development', fingerprint: 'fp-native-2' });
  await page.goto(`${stack.a.url}/console/#/group/${groups.native}`);
  await expect(page.getByText(groups.native)).toBeVisible();
  await page.getByRole('button', { name: 'Promote…' }).click();
  await dialog.getByRole('button', { name: 'Promote to production' }).click();
  await expect(dialog.getByRole('alert')).toContainText(/native fingerprint changed/i);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.promoted')).toHaveCount(0);
});

test('a viewer sees the group and the release but no group action and no promotion', async ({ page }) => {
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  await page.goto(`${stack.a.url}/console/#/group/${groups.dev}`);
  await expect(page.locator('[data-platform="ios"]')).toBeVisible();
  for (const name of [/Promote/, /Set share/, /^Complete/, /^Halt/, /^Revert/, /^Roll back/]) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  const ios = (await group(groups.dev)).releases[0]!;
  await page.goto(`${stack.a.url}/console/#/release/${ios.releaseId}`);
  await expect(page.getByRole('heading', { level: 1, name: /^Release / })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Promote…' })).toHaveCount(0);
  await signOut(page);
});

test('the audit log over 20 000 events: newest first, Load more continues without overlap, filters narrow on the server', async ({
  page,
}, testInfo) => {
  // Signed in first: the sign-in is an audit event too, and the newest must be the marker below.
  await signIn(page, stack.a.url, stack.a.tokens.viewer!);
  const COUNT = 20_000;
  const now = Date.now();
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    // One a second going back from now, the newest a marker of its own; every third by operator:bulk-b.
    const rows = Array.from({ length: COUNT }, (_, i) => ({
      id: randomUUID(),
      type: i === 0 ? 'bulk.newest' : i % 2 === 0 ? 'bulk.even' : 'bulk.odd',
      actor: i % 3 === 0 ? 'operator:bulk-b' : 'operator:bulk-a',
      platform: i % 2 === 0 ? 'ios' : 'android',
      createdAt: now - i * 1000,
    }));
    await client.query(
      `insert into audit_events (id, type, actor, channel, platform, runtime_version, release_id, details, created_at)
       select id, type, actor, 'production', platform, '1.0.0', null, '{}', created_at
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) as t(id, type, actor, platform, created_at)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.type),
        rows.map((r) => r.actor),
        rows.map((r) => r.platform),
        rows.map((r) => r.createdAt),
      ],
    );
  } finally {
    await client.end();
  }
  const newest = await api<AuditEventPage>('/api/audit-events?order=newest&limit=200');
  expect(newest.events[0]?.type).toBe('bulk.newest');

  await page.getByRole('link', { name: 'Audit log' }).click();
  const items = page.locator('.audit > li');
  await expect(items).toHaveCount(100);
  await expect(items.first()).toHaveAttribute('data-type', 'bulk.newest');
  await expect(page.getByText('Showing 100 events, newest first. Older events follow.')).toBeVisible();
  const ids = () => items.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-event')));
  expect(await ids()).toEqual(newest.events.slice(0, 100).map((e) => e.id));

  // Load more, from the keyboard: the next hundred, older, none seen before.
  await tabTo(page, page.getByRole('button', { name: 'Load more' }), 1000);
  await page.keyboard.press('Enter');
  await expect(items).toHaveCount(200);
  const both = await ids();
  expect(new Set(both).size).toBe(200);
  expect(both).toEqual(newest.events.map((e) => e.id));

  // Filters, applied by the server: one actor, iOS only.
  await page.getByLabel('Actor').fill('operator:bulk-b');
  await page.getByLabel('Platform').selectOption('ios');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(items.first()).toHaveAttribute('data-type', 'bulk.newest');
  await expect(items).toHaveCount(100);
  expect(
    await items.evaluateAll((elements) =>
      elements.every((element) => element.textContent?.includes('operator:bulk-b')),
    ),
  ).toBe(true);
  const filtered = await api<AuditEventPage>(
    '/api/audit-events?order=newest&limit=100&actor=operator:bulk-b&platform=ios',
  );
  expect(await ids()).toEqual(filtered.events.map((e) => e.id));
  // A type narrows further; a time range before any of them leaves none.
  await page.getByLabel('Type').fill('bulk.even');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(items.first()).toHaveAttribute('data-type', 'bulk.even');
  await capture(page, testInfo, 'audit-newest');
  await page.getByLabel('To', { exact: true }).fill('2020-01-01');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(items).toHaveCount(0);
  await expect(page.getByText('Showing 0 events, newest first.')).toBeVisible();
  await page.getByLabel('To', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(items.first()).toHaveAttribute('data-type', 'bulk.even');

  // In Korean: "더 보기".
  await chooseLanguage(page, 'ko');
  await expect(page.getByRole('button', { name: '더 보기' })).toBeVisible();
});

test('Korean screenshots of the group row, the group page, its dialog and the promotion', async ({
  page,
}, testInfo) => {
  await page.goto(`${stack.a.url}/console/`);
  await chooseLanguage(page, 'ko');
  await page.locator('input[type="password"]').fill(stack.a.tokens.releaser!);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation')).toBeVisible();
  groups.ko = await publishGroup('9.0.0', '결제 화면 개선', { flags: ['--rollout', '20'] });
  await page.goto(`${stack.a.url}/console/#/tracks`);
  await expect(page.locator(`tr[data-group="${groups.ko}"]`)).toBeVisible();
  await capture(page, testInfo, 'ko-group-tracks');
  await page.goto(`${stack.a.url}/console/#/group/${groups.ko}`);
  await expect(page.locator('[data-platform="ios"]')).toBeVisible();
  await capture(page, testInfo, 'ko-group');
  await page.getByLabel('새 비율 (%)').fill('50');
  await page.getByRole('button', { name: '모든 플랫폼에 비율 설정' }).click();
  await expect(page.getByRole('dialog', { name: '모든 플랫폼의 롤아웃 변경' })).toBeVisible();
  await capture(page, testInfo, 'ko-group-dialog');
  await page.keyboard.press('Escape');
  await page.goto(`${stack.a.url}/console/#/group/${groups.dev}`);
  await page.getByRole('button', { name: '승격…' }).click();
  await expect(page.getByRole('dialog', { name: '다른 채널로 승격' })).toBeVisible();
  await capture(page, testInfo, 'ko-promote-dialog');
  await page.keyboard.press('Escape');
  await page.goto(`${stack.a.url}/console/#/audit`);
  await expect(page.getByRole('button', { name: '더 보기' })).toBeVisible();
  await capture(page, testInfo, 'ko-audit-newest');
});
