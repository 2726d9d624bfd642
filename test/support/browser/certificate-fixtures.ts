import {
  type CertificateLanguage,
  createCertificateI18n,
  DEFAULT_LANGUAGE,
  type Translate,
  translatorOf,
} from '@ferry/certificate-flow';
import type { CertificateVendor } from '@ferry/contracts';
import { test as base, expect } from '@playwright/test';
import { CERTIFICATE_ENV } from './certificate-setup.js';

/** A certificate call the page sent, exactly as it went over the wire. */
export interface WireRequest {
  url: string;
  body: string;
}

/** The certificate server's controls: the vendor simulators, the operator's assignments, the development routes. */
export interface Ferry {
  url: string;
  /** The person approves in the provider app: the simulator's newest pending session. */
  approveLatest(vendor: CertificateVendor): Promise<void>;
  /** Moves the simulator's clock, e.g. past the authentication's lifetime. */
  advanceClock(vendor: CertificateVendor, ms: number): Promise<void>;
  /** An assignment of the development user whose certificateVendor is `vendor`. */
  createAssignment(vendor: CertificateVendor): Promise<string>;
  /** A certified user token from the development sign-in (what the web page uses). */
  userToken(): Promise<string>;
  /** The AES key the development server hands out. */
  aesKey(): Promise<string>;
}

export interface LanguageOptions {
  /** The language the person uses (a project option in playwright.config.ts); Korean by default. */
  language: CertificateLanguage;
}

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run through playwright.config.ts (global setup)`);
  return value;
};

async function control(vendor: CertificateVendor, method: string, path: string, body?: unknown): Promise<void> {
  const response = await fetch(`${env(CERTIFICATE_ENV.simulator(vendor))}/_control${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} /_control${path} on ${vendor}: ${response.status}`).toBe(true);
}

/**
 * The fixtures of the certificate suites (the web funnel, the native screens through
 * react-native-web), against the server certificate-setup.ts started: the test's language and its
 * words, the server's controls (fresh simulators for every test), and the certificate calls the
 * page sent.
 */
export const test = base.extend<
  { ferry: Ferry; certificateRequests: WireRequest[]; t: Translate },
  // Worker-scoped so a spec can read it while deciding which of its cases a language runs.
  LanguageOptions
>({
  language: [DEFAULT_LANGUAGE, { option: true, scope: 'worker' }],

  /** The page's words in the test's language, from the same catalogue the page renders. */
  t: async ({ language }, use) => use(translatorOf(createCertificateI18n(language))),

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => use(env(CERTIFICATE_ENV.url)),

  ferry: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const url = env(CERTIFICATE_ENV.url);
      // Every test starts with fresh simulators: no sessions, real time.
      await control('VENDOR_A', 'POST', '/reset');
      await control('VENDOR_B', 'POST', '/reset');
      await use({
        url,
        approveLatest: (vendor) => control(vendor, 'POST', '/sessions/latest/approve'),
        advanceClock: (vendor, ms) => control(vendor, 'POST', '/clock', { advanceMs: ms }),
        createAssignment: async (vendor) => {
          const response = await fetch(`${url}/v2/operator/assignments`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${env(CERTIFICATE_ENV.operatorToken)}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ userId: 'dev-user', certificateVendor: vendor, title: 'e2e' }),
          });
          expect(response.status).toBe(201);
          return ((await response.json()) as { assignment: { id: string } }).assignment.id;
        },
        userToken: async () => {
          const response = await fetch(`${url}/dev/sign-in`, { method: 'POST' });
          return ((await response.json()) as { token: string }).token;
        },
        aesKey: async () => {
          const response = await fetch(`${url}/dev/web-config`);
          return ((await response.json()) as { certAesKey: string }).certAesKey;
        },
      });
    },
    { auto: true },
  ],

  certificateRequests: async ({ page }, use) => {
    const seen: WireRequest[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/v2/user/certificate/')) {
        seen.push({ url: request.url(), body: request.postData() ?? '' });
      }
    });
    await use(seen);
  },
});

export { expect };
