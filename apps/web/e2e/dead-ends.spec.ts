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

const UNKNOWN_ASSIGNMENT = '00000000-0000-4000-8000-000000000000';

test('an unknown assignment says what may have happened and leads back to the list', async ({ page, language, t }) => {
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await page.goto(`/?assignmentId=${UNKNOWN_ASSIGNMENT}`);
  await expectAlert(page, t('alerts.assignmentNotFound.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.assignmentNotFound.message'));
  await dismissAlert(page, t);
  const back = page.getByRole('button', { name: t('entry.backToList') });
  await expect(back).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${language}-assignment-not-found`);

  // Without a host, back where the person came from.
  await back.click();
  await expectStep(page, t, 'intro');
  expect(new URL(page.url()).search).toBe('');
});

test('a host that knows its way back (ferryHost.goBack) is asked to take it', async ({ page, ferry, t }) => {
  const token = await ferry.userToken();
  await page.addInitScript((userToken) => {
    const host = window as unknown as { ferryHost: unknown; wentBack: number };
    host.wentBack = 0;
    host.ferryHost = {
      getUserToken: () => userToken,
      goBack: () => {
        host.wentBack += 1;
      },
    };
  }, token);
  await page.goto(`/?assignmentId=${UNKNOWN_ASSIGNMENT}`);
  await dismissAlert(page, t);
  await page.getByRole('button', { name: t('entry.backToList') }).click();
  expect(await page.evaluate(() => (window as unknown as { wentBack: number }).wentBack)).toBe(1);
});

test('"identity confirmation needed" names the host’s own menu when the host gives it', async ({ page, ferry, t }) => {
  const token = await ferry.userToken();
  const menu = '내 정보 > 본인인증';
  await page.addInitScript(
    ([userToken, certificationMenu]) => {
      (window as unknown as { ferryHost: unknown }).ferryHost = { getUserToken: () => userToken, certificationMenu };
    },
    [token, menu] as const,
  );
  // The identity provider's token lacks the certified claim: the server answers 403 NOT_CERTIFIED.
  await page.route('**/v2/user/assignments/*', (route) =>
    route.fulfill({
      status: 403,
      json: {
        error: { code: 'NOT_CERTIFIED', message: 'Only certified users can request certificates.', details: {} },
      },
    }),
  );
  await page.goto(`/?assignmentId=${UNKNOWN_ASSIGNMENT}`);
  await expectAlert(page, t('alerts.notCertified.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.notCertified.messageWithMenu', { menu }));
});

test('"secure entry unavailable" is for encryption only: a page without its key says the service is unavailable', async ({
  page,
  t,
}) => {
  await page.route('**/dev/web-config', (route) =>
    route.fulfill({ status: 404, json: { error: { code: 'NOT_FOUND', message: 'no', details: {} } } }),
  );
  await page.goto('/');
  await expectAlert(page, t('alerts.unavailable.title'));
  await expect(page.getByRole('alertdialog')).not.toContainText(t('alerts.encryptionUnavailable.title'));
});

test('a device that cannot encrypt says so on Next, and sends nothing', async ({ page, certificateRequests, t }) => {
  await page.addInitScript(() => {
    // WebCrypto that refuses to encrypt, as on a device whose browser lacks AES-CBC.
    crypto.subtle.encrypt = () => Promise.reject(new DOMException('not supported', 'NotSupportedError'));
  });
  await page.goto('/');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await expectAlert(page, t('alerts.encryptionUnavailable.title'));
  await expect(page.getByRole('alertdialog')).toContainText(t('alerts.encryptionUnavailable.message'));
  await dismissAlert(page, t);
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(t('intro.heading'));
  expect(certificateRequests).toEqual([]);
});
