/**
 * The two certificate vendors' wire formats, as both sides speak them: the server's vendor clients
 * and the vendor simulators of @ferry/dev-tools. Node only (identity encryption uses node:crypto);
 * the app and the web funnel never import this entry point.
 */
export { decryptForVendorA, encryptForVendorA, vendorAIv } from './vendor-a/identity-encryption.js';
export { documentOfVendorAProduct, VENDOR_A_PRODUCTS } from './vendor-a/products.js';
export { VENDOR_A_PROVIDER_CODES } from './vendor-a/provider-codes.js';
export {
  VENDOR_A_HEADERS,
  type VendorACommon,
  type VendorARequestBody,
  type VendorAResponseBody,
} from './vendor-a/wire.js';
export { decryptForVendorB, encryptForVendorB } from './vendor-b/identity-encryption.js';
export { VENDOR_B_ORGANIZATION, VENDOR_B_PRODUCTS } from './vendor-b/products.js';
export { VENDOR_B_PROVIDER_CODES } from './vendor-b/provider-codes.js';
export { decodeUrlEncodedJson, encodeUrlEncodedJson } from './vendor-b/url-encoded-json.js';
export {
  VENDOR_B_CODES,
  type VendorBIssuedData,
  type VendorBRequestBody,
  type VendorBResponseBody,
  type VendorBResult,
  type VendorBTokenResponse,
  type VendorBTwoWayData,
} from './vendor-b/wire.js';
