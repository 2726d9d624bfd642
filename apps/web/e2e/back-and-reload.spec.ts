import { expectAccessible } from '../../../test/support/browser/accessibility.js';
import { expect, test } from './support/fixtures.js';
import {
  dismissAlert,
  expectNoSidewaysScroll,
  expectStep,
  fillIntro,
  introFields,
  keptInBrowser,
  PERSON,
  screenshot,
  sentencePattern,
} from './support/funnel-page.js';

/** The ciphertexts of the back part that went over the wire: as good as the digits (the key is public). */
const ciphertexts = (requests: Array<{ body: string }>): string[] =>
  requests.map((request) => {
    const body = JSON.parse(request.body) as { identityEnc?: string; rrn2Enc?: string };
    return body.identityEnc ?? body.rrn2Enc ?? '';
  });

/** Neither the back part nor any of its ciphertexts is kept in the browser or its address. */
async function expectNothingSecretKept(page: import('@playwright/test').Page, requests: Array<{ body: string }>) {
  const kept = await keptInBrowser(page);
  expect(kept).not.toContain(PERSON.back);
  for (const ciphertext of ciphertexts(requests)) expect(kept).not.toContain(ciphertext);
}

test('Back moves the funnel one step back, never out of it, and says the back part must be typed again', async ({
  page,
  ferry,
  certificateRequests,
  t,
}) => {
  const fields = introFields(page, t);
  await page.goto('/');
  await expectStep(page, t, 'intro');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
  await expect(page.getByText(t('verification.backHint'))).toBeVisible();

  // Back from the provider choice: the details, kept but the back part, which must be typed again.
  await page.goBack();
  await expectStep(page, t, 'intro');
  await expect(fields.front).toHaveValue(PERSON.front);
  await expect(fields.back).toHaveValue('');
  await expect(fields.back).toHaveAccessibleDescription(sentencePattern(t('verification.backHint')));
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  expect(certificateRequests).toEqual([]);

  await fields.back.fill(PERSON.back);
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();
  await expectStep(page, t, 'confirm');

  // Back from confirm: the provider choice; choosing again starts a new authentication.
  await page.goBack();
  await expectStep(page, t, 'simpleVerification');
  await page.getByRole('button', { name: t('providers.provider_b'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  expect(certificateRequests).toHaveLength(2);

  // Forward cannot skip ahead of the funnel.
  await page.goBack();
  await expectStep(page, t, 'simpleVerification');
  await page.goForward();
  await expectStep(page, t, 'simpleVerification');
  await page.getByRole('button', { name: t('providers.provider_b'), exact: true }).click();
  await expectStep(page, t, 'confirm');

  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');

  // Back from a finished request starts a new one; Back from there leaves the funnel, as a page does.
  await page.goBack();
  await expectStep(page, t, 'intro');
  await expect(fields.front).toHaveValue('');
  await expectNothingSecretKept(page, certificateRequests);
  await page.goBack();
  await expect(page).toHaveURL('about:blank');
});

test('a reload on the provider choice keeps the details but the back part, and says why', async ({
  page,
  certificateRequests,
  t,
}) => {
  const fields = introFields(page, t);
  await page.goto('/');
  await fillIntro(page, t, 'family-relations', { ...PERSON, sido: undefined, sigg: undefined });
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
  await expectNothingSecretKept(page, certificateRequests);

  await page.reload();
  await expectStep(page, t, 'intro');
  await expect(page.getByRole('radio', { name: t('documents.family-relations') })).toBeChecked();
  await expect(fields.front).toHaveValue(PERSON.front);
  await expect(fields.family('mthrNm')).toHaveValue(PERSON.names.mthrNm ?? '');
  await expect(fields.back).toHaveValue('');
  await expect(fields.back).toHaveAccessibleDescription(sentencePattern(t('resume.backAgain')));
  await expectAccessible(page);

  await fields.back.fill(PERSON.back);
  await fields.next.click();
  await expectStep(page, t, 'simpleVerification');
});

test('a reload while waiting for approval resumes there, asks for the back part again, and completes', async ({
  page,
  ferry,
  certificateRequests,
  language,
  t,
}) => {
  await page.goto('/');
  await fillIntro(page, t, 'resident-abstract', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await page.getByRole('button', { name: t('providers.provider_b'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await expectNothingSecretKept(page, certificateRequests);

  await page.reload();
  await expectStep(page, t, 'confirm');
  const back = page.getByLabel(t('intro.back'), { exact: true });
  await expect(back).toBeVisible();
  await expect(back).toHaveValue('');
  await expect(back).toHaveAccessibleDescription(sentencePattern(t('resume.backAgain')));
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${language}-resume-confirm`);

  // The person approved in the provider app meanwhile; Complete needs the back part first.
  await ferry.approveLatest('VENDOR_A');
  const complete = page.getByRole('button', { name: t('confirm.complete') });
  await complete.click();
  await expect(back).toHaveAttribute('aria-invalid', 'true');
  await expect(back).toBeFocused();
  await expect(back).toHaveAccessibleDescription(sentencePattern(t('validation.back', { count: 0 })));
  expect(certificateRequests).toHaveLength(1);

  await back.fill(PERSON.back);
  await complete.click();
  await expectStep(page, t, 'done');
  // One first call, one second call with the same authentication, the back part freshly encrypted.
  expect(certificateRequests).toHaveLength(2);
  const [first, second] = certificateRequests.map((request) => JSON.parse(request.body));
  expect(first.stepData).toBeNull();
  expect(second.stepData).toEqual(expect.any(String));
  expect(second.identityEnc).not.toBe(first.identityEnc);
  await expectNothingSecretKept(page, certificateRequests);
});

test('a reload on the last page keeps the PDF’s link for its lifetime and says until when', async ({
  page,
  ferry,
  certificateRequests,
  language,
  request,
  t,
}) => {
  const assignmentId = await ferry.createAssignment('VENDOR_B');
  await page.goto(`/?assignmentId=${assignmentId}`);
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await page.getByRole('button', { name: t('providers.provider_c'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await ferry.approveLatest('VENDOR_B');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');
  const until = sentencePattern(t('done.expiresAt', { time: '{{time}}' }));
  await expect(page.getByText(t('done.issued', { minutes: 10 }))).toBeVisible();
  await expect(page.getByText(until)).toBeVisible();

  await page.reload();
  await expectStep(page, t, 'done');
  await expect(page.getByText(until)).toBeVisible();
  await expect(page.getByText(sentencePattern(t('done.issued', { minutes: '{{minutes}}' })))).toBeVisible();
  const open = page.getByRole('link', { name: new RegExp(t('done.open')) });
  const pdf = await request.get((await open.getAttribute('href')) ?? '');
  expect(pdf.status()).toBe(200);
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, `${language}-done-after-reload`);
  await expectNothingSecretKept(page, certificateRequests);
  expect(await keptInBrowser(page)).not.toContain((await open.getAttribute('href')) ?? '-');

  // Once the link's time has passed (as the server says), the page says so and offers a new request.
  await page.route('**/v2/user/certificate/authentications/*', async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    body.authentication.certificate = { ...body.authentication.certificate, preSignedUrl: null, remainingSeconds: 0 };
    await route.fulfill({ response: answer, json: body });
  });
  await page.reload();
  await expectStep(page, t, 'done');
  await expect(page.getByText(t('done.linkExpired'))).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(t('done.open')) })).toHaveCount(0);
  await page.getByRole('button', { name: t('done.restart') }).click();
  await expectStep(page, t, 'intro');
});

test('a reload that cannot reach the server on the last page says so, and reads again on request', async ({
  page,
  ferry,
  t,
}) => {
  await page.goto('/');
  await fillIntro(page, t, 'resident-certificate', { ...PERSON, names: {} });
  await introFields(page, t).next.click();
  await page.getByRole('button', { name: t('providers.provider_a'), exact: true }).click();
  await expectStep(page, t, 'confirm');
  await ferry.approveLatest('VENDOR_A');
  await page.getByRole('button', { name: t('confirm.complete') }).click();
  await expectStep(page, t, 'done');

  await page.route('**/v2/user/certificate/authentications/*', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('alertdialog').getByRole('heading')).toHaveText(t('alerts.network.title'));
  await dismissAlert(page, t);
  await expect(page.getByText(t('done.notLoaded'))).toBeVisible();
  await page.unroute('**/v2/user/certificate/authentications/*');
  await page.getByRole('button', { name: t('entry.retry') }).click();
  await expect(page.getByRole('link', { name: new RegExp(t('done.open')) })).toBeVisible();
});
