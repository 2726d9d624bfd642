/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Base64 of the 32-byte certificate AES key of the target environment (public, build-time). */
  readonly VITE_CERT_AES_KEY?: string;
  /** Origin of the Ferry API when the page is not served by Ferry itself; default: same origin. */
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
