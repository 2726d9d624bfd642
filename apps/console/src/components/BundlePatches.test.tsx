import type { BundlePatch } from '@ferry/contracts';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/console-i18n.js';
import { BundlePatches } from './BundlePatches.js';

/** Rendered in English: the words below are the English catalogue's. */
const english = createI18n('en');
const render = (element: ReactElement): string =>
  renderToStaticMarkup(<I18nextProvider i18n={english}>{element}</I18nextProvider>);

/**
 * The release page's bundle patches as markup (react-dom/server, no browser): what each state says,
 * the sizes and the share of the full download. The page around it runs in Chromium (apps/console/e2e).
 */
const RELEASE = '0b7e3c1a-5d2f-4c8e-9a41-2f6d8e0c4b13';
const EMBEDDED = 'e1d2c3b4-a596-4877-8899-aabbccddeeff';
const OTHER = '7f00aa11-2b3c-4d5e-8f60-718293a4b5c6';

const patch = (overrides: Partial<BundlePatch>): BundlePatch => ({
  base: { kind: 'release', updateId: RELEASE },
  state: 'ready',
  bytes: 2_048,
  fullBytes: 204_800,
  ...overrides,
});

const textOf = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Each body row's cells as text, in column order. */
const rows = (html: string): string[][] =>
  [...(html.match(/<tbody>(.*)<\/tbody>/s)?.[1] ?? '').matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((row) =>
    [...(row[1] ?? '').matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) => textOf(cell[1] ?? '')),
  );

describe('BundlePatches', () => {
  it('shows one row per patch: its base, its state in words, the patch and full sizes, and the share', () => {
    const html = render(
      <BundlePatches
        maxRatio={0.5}
        patches={[
          patch({}),
          patch({ base: { kind: 'embedded', updateId: EMBEDDED }, state: 'pending', bytes: null, fullBytes: null }),
          patch({ base: { kind: 'release', updateId: OTHER }, state: 'larger', bytes: 150_000, fullBytes: 200_000 }),
          patch({ base: { kind: 'embedded', updateId: OTHER }, state: 'failed', bytes: null, fullBytes: 200_000 }),
        ]}
      />,
    );
    expect(rows(html)).toEqual([
      ['release 0b7e3c1a', 'ready', '2.0 KB', '200.0 KB', '1.0 %'],
      ['embedded build e1d2c3b4', 'being made', '—', '—', '—'],
      ['release 7f00aa11', 'not offered (larger than 50 % of the full download)', '146.5 KB', '195.3 KB', '75.0 %'],
      [
        'embedded build 7f00aa11',
        'failed (devices get the full bundle; the server log says why)',
        '—',
        '195.3 KB',
        '—',
      ],
    ]);
    // A release base links to its own page; an embedded build has none, its full id is in the title.
    expect(html).toContain(`<a href="#/release/${RELEASE}">0b7e3c1a</a>`);
    expect(html).toContain(`<code title="${EMBEDDED}">e1d2c3b4</code>`);
    expect(html).toContain(`data-patch-base="${EMBEDDED}"`);
  });

  it('names the configured share a larger patch was over, without a trailing .0', () => {
    const larger = [patch({ state: 'larger', bytes: 90, fullBytes: 100 })];
    expect(rows(render(<BundlePatches maxRatio={0.85} patches={larger} />))[0]?.[1]).toBe(
      'not offered (larger than 85 % of the full download)',
    );
    expect(rows(render(<BundlePatches maxRatio={0.125} patches={larger} />))[0]?.[1]).toBe(
      'not offered (larger than 12.5 % of the full download)',
    );
  });

  it('writes a patch of a few hundred bytes against megabytes as under 0.1 %, never as 0', () => {
    const tiny = [patch({ bytes: 312, fullBytes: 1_500_000 })];
    expect(rows(render(<BundlePatches maxRatio={0.5} patches={tiny} />))[0]).toEqual([
      'release 0b7e3c1a',
      'ready',
      '312 B',
      '1.4 MB',
      '< 0.1 %',
    ]);
  });

  it('is a table named by its heading, with a header cell per column and a label per cell for phones', () => {
    const html = render(<BundlePatches maxRatio={0.5} patches={[patch({})]} />);
    expect(html).toContain('<h2 id="patches-title">Bundle patches</h2>');
    expect(html).toContain('<table class="data patches" aria-labelledby="patches-title">');
    const headers = [...html.matchAll(/<th scope="col">(.*?)<\/th>/g)].map((match) => match[1]);
    const labels = [...html.matchAll(/<td data-label="([^"]*)"/g)].map((match) => match[1]);
    expect(headers).toEqual(['From', 'State', 'Patch', 'Full download (brotli)', 'Patch ÷ full']);
    expect(labels).toEqual(headers);
  });

  it('says why there is nothing to show when the launch bundle has no patches, and draws no table', () => {
    const html = render(<BundlePatches maxRatio={0.5} patches={[]} />);
    expect(html).toContain('<h2 id="patches-title">Bundle patches</h2>');
    expect(html).not.toContain('<table');
    expect(textOf(html)).toContain('No patches to this launch bundle.');
    expect(textOf(html)).toContain('ferry embedded upload');
  });
});
