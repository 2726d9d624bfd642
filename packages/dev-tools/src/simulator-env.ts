import type { VendorASimulatorAccount } from './vendor-a/simulator.js';
import { type VendorBSimulatorAccount, vendorBPublicKeyText } from './vendor-b/simulator.js';

/** The server configuration (docs/configuration.md) that points VENDOR_A at a simulator. */
export const vendorASimulatorEnv = (url: string, account: VendorASimulatorAccount): Record<string, string> => ({
  VENDOR_A_URL: url,
  VENDOR_A_USER_ID: account.userId,
  VENDOR_A_HKEY: account.hkey,
  VENDOR_A_EKEY: account.ekey.toString('utf8'),
});

/** The server configuration (docs/configuration.md) that points VENDOR_B at a simulator. */
export const vendorBSimulatorEnv = (url: string, account: VendorBSimulatorAccount): Record<string, string> => ({
  VENDOR_B_URL: url,
  VENDOR_B_CLIENT_ID: account.clientId,
  VENDOR_B_CLIENT_SECRET: account.clientSecret,
  VENDOR_B_PUBLIC_KEY: vendorBPublicKeyText(account),
});
