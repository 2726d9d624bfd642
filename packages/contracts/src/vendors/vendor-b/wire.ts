import type { TwoWayInfo } from '@ferry/contracts';

/** VENDOR_B's wire format (the `twoWayInfo` style). Bodies travel as URL-encoded JSON text. */

export const VENDOR_B_CODES = {
  success: 'CF-00000',
  continueTwoWay: 'CF-03002',
} as const;

export interface VendorBRequestBody {
  organization: string;
  /** Simple authentication (non-member). */
  loginType: '6';
  loginTypeLevel: string;
  /** The whole resident registration number, RSA PKCS#1 v1.5 with the account key, Base64. */
  identity: string;
  identityEncYn: 'Y';
  birthDate: string;
  /** Ask for the original document (the PDF, Base64) in the answer. */
  originDataYN: '1';
  addrSido?: string;
  addrSiGunGu?: string;
  fatherName?: string;
  motherName?: string;
  spouseName?: string;
  childName?: string;
  /** Second request only. */
  is2Way?: true;
  simpleAuth?: '1';
  twoWayInfo?: TwoWayInfo;
}

export interface VendorBResult {
  code: string;
  message: string;
  extraMessage: string;
  transactionId: string;
}

export interface VendorBTwoWayData extends TwoWayInfo {
  continue2Way: true;
  method: 'simpleAuth';
  extraInfo: { commSimpleAuth: string };
}

export interface VendorBIssuedData {
  resOriGinalData: string;
  resIssueNo: string;
}

export interface VendorBResponseBody {
  result: VendorBResult;
  data: Partial<VendorBTwoWayData & VendorBIssuedData> | Record<string, never>;
}

export interface VendorBTokenResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}
