/** What the interop test loads into Chromium: the shared package's two ciphers, nothing else. */
export { createPureJsCipher } from '@ferry/certificate-flow/pure-js';
export { createWebCryptoCipher } from '@ferry/certificate-flow/webcrypto';
