import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectAlert,
  expectNoSidewaysScroll,
  expectStep,
  fillIntro,
  introFields,
  PERSON,
  screenshot,
} from './support/funnel-page.js';

const CERTIFICATE_CALLS = '**/v2/user/certificate/**';

/** A lost connection is named as such (not "service unavailable"), with what to do, and the person stays where they were. */
async function expectNetworkAlert(
  page: import('@playwright/test').Page,
  t: import('@ferry/certificate-flow').Translate,
) {
  await expectAlert(page, t('alerts.network.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.network.message'));
  await expect(page.getByRole('alertdialog')).not.toContainText(t('alerts.unavailable.title'));
}

test('a call that gets no answer (the connection dropped) says to check the connection, and pressing again works', async ({
  page,
  language,
  t,
}) => {
  await page.goto('/');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await expectStep(page, t, 'simpleVerification');

  // The request fails at the network level: fetch rejects with a TypeError, no HTTP answer at all.
  await page.route(CERTIFICATE_CALLS, (route) => route.abort('internetdisconnected'));
  const provider = page.getByRole('button', { name: t('providers.provider_a'), exact: true });
  await provider.click();
  await expectNetworkAlert(page, t);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${language}-alert-network`);
  await dismissAlert(page, t);
  await expect(page.getByRole('heading', { level: 2, name: t('verification.heading') })).toBeVisible();
  await expect(provider).toBeFocused();

  await page.unroute(CERTIFICATE_CALLS);
  await provider.click();
  await expectStep(page, t, 'confirm');
});

test('offline while completing: the same alert, and once back online Complete issues the document', async ({
  page,
  context,
  ferry,
  t,
}) => {
  await page.goto('/');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await page.getByRole('button', { name: t('providers.provider_d'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await ferry.approveLatest('VENDOR_A');

  await context.setOffline(true);
  const complete = page.getByRole('button', { name: t('confirm.complete') });
  await complete.click();
  await expectNetworkAlert(page, t);
  await dismissAlert(page, t);
  await expect(complete).toBeFocused();

  await context.setOffline(false);
  await complete.click();
  await expectStep(page, t, 'done');
});

test('a page that cannot reach the server at start says so and offers to try again', async ({ page, t }) => {
  const fields = introFields(page, t);
  await page.route('**/dev/web-config', (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  await expectNetworkAlert(page, t);
  await dismissAlert(page, t);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('alerts.network.title'));
  await expectAccessible(page);

  await page.unroute('**/dev/web-config');
  await page.getByRole('button', { name: t('entry.retry') }).click();
  await expectStep(page, t, 'intro');
  await expect(fields.front).toBeVisible();
});
