import { expect, test } from './support/fixtures.js';
import { expectStep } from './support/funnel-page.js';

test('Chromium gets the page’s script and style sheet brotli-compressed and cached for good, index.html revalidated', async ({
  page,
  t,
}) => {
  const answers = new Map<string, Record<string, string>>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path === '/' || path.startsWith('/assets/')) answers.set(path, response.headers());
  });
  await page.goto('/');
  await expectStep(page, t, 'intro');

  expect(answers.get('/')?.['cache-control']).toBe('no-cache');
  const assets = [...answers.keys()].filter((path) => /\.(js|css)$/.test(path));
  expect(assets.filter((path) => path.endsWith('.js'))).toHaveLength(1);
  expect(assets.filter((path) => path.endsWith('.css'))).toHaveLength(1);
  for (const path of assets) {
    const headers = answers.get(path) ?? {};
    expect(headers['content-encoding'], path).toBe('br');
    expect(headers.vary, path).toContain('accept-encoding');
    expect(headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
  }
});
