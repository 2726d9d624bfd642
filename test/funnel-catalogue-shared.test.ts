import {
  CATALOGUES,
  CERTIFICATE_PROVIDERS,
  createCertificateI18n,
  type FunnelState,
  initialFunnelState,
  providerLabelKey,
  translatorOf,
} from '@ferry/certificate-flow';
import { type ComponentType, createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CERTIFICATE_PROVIDERS as NATIVE_PROVIDERS } from '../packages/expo/src/certificates/certificate-providers.js';

/**
 * Web and native read ONE catalogue and ONE provider list (issue 20): each client's real provider
 * step is rendered here (the web page's with react-dom, the native screen's through react-native-web,
 * as the native harness does), then one catalogue entry and the list's order are changed and both
 * renderings must follow.
 */
vi.mock('react-native', async () => {
  const reactNativeWeb: string = 'react-native-web'; // untyped package: a computed specifier
  return await import(/* @vite-ignore */ reactNativeWeb);
});

type Step = ComponentType<{ state: FunnelState; dispatch: () => void }>;
let webStep: Step;
let nativeStep: Step;

beforeAll(async () => {
  // Imported by a computed path: the root type check has no JSX, the clients check their own .tsx.
  const load = (path: string) => import(/* @vite-ignore */ new URL(path, import.meta.url).href);
  webStep = (await load('../apps/web/src/steps/SimpleVerificationStep.tsx')).SimpleVerificationStep;
  nativeStep = (await load('../packages/expo/src/certificates/screens/simple-verification-screen.tsx'))
    .SimpleVerificationScreen;
});

const state: FunnelState = { ...initialFunnelState({ vendor: 'VENDOR_A' }), step: 'simpleVerification' };
const render = (step: Step, language: 'ko' | 'en') =>
  renderToStaticMarkup(
    h(I18nextProvider, { i18n: createCertificateI18n(language) }, h(step, { state, dispatch: () => {} })),
  );
/** The provider labels in the order they appear in the markup. */
const labelsInOrder = (markup: string, labels: string[]) =>
  labels
    .map((label) => ({ label, at: markup.indexOf(`>${label}<`) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ label }) => label);

const mutableKo = CATALOGUES.ko as unknown as { providers: Record<string, string> };
const original = { label: mutableKo.providers.provider_b ?? '', order: [...CERTIFICATE_PROVIDERS] };
afterEach(() => {
  mutableKo.providers.provider_b = original.label;
  (CERTIFICATE_PROVIDERS as typeof original.order).splice(0, original.order.length, ...original.order);
});

describe('the web and native funnels share one catalogue and one provider list', () => {
  it('the native provider list is the very object the web renders', () => {
    expect(NATIVE_PROVIDERS).toBe(CERTIFICATE_PROVIDERS);
  });

  it.each(['ko', 'en'] as const)(
    'both render the five providers with the same words, in the same order (%s)',
    (language) => {
      const t = translatorOf(createCertificateI18n(language));
      const labels = CERTIFICATE_PROVIDERS.map((p) => t(providerLabelKey(p.code)));
      expect(labelsInOrder(render(webStep, language), labels)).toEqual(labels);
      expect(labelsInOrder(render(nativeStep, language), labels)).toEqual(labels);
    },
  );

  it('changing one catalogue entry changes what both render', () => {
    mutableKo.providers.provider_b = '바뀐 포털';
    for (const step of [webStep, nativeStep]) {
      const markup = render(step, 'ko');
      expect(markup).toContain('>바뀐 포털<');
      expect(markup).not.toContain(`>${original.label}<`);
    }
  });

  it('reordering the provider list reorders both', () => {
    (CERTIFICATE_PROVIDERS as typeof original.order).reverse();
    const t = translatorOf(createCertificateI18n('ko'));
    const reversed = CERTIFICATE_PROVIDERS.map((p) => t(providerLabelKey(p.code)));
    expect(reversed[0]).toBe(t('providers.provider_e'));
    expect(labelsInOrder(render(webStep, 'ko'), reversed)).toEqual(reversed);
    expect(labelsInOrder(render(nativeStep, 'ko'), reversed)).toEqual(reversed);
  });
});
