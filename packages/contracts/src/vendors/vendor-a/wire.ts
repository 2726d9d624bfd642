/** VENDOR_A's wire format (the `stepData` style): JSON in, `{ common, data }` out. */

export const VENDOR_A_HEADERS = {
  userId: 'user-id',
  key: 'hkey',
  transaction: 'user-tr-no',
} as const;

export interface VendorARequestBody {
  authMethod: 'EASY';
  loginOrgCd: string;
  /** Birth date part of the resident registration number, plain. */
  resNo: string;
  /** The whole resident registration number, AES-128-CBC with the account key, Base64. */
  bizNoEnc: string;
  stepMode: 'step';
  step: 'init' | 'sign';
  stepData?: string;
  sido?: string;
  sigg?: string;
  fthrNm?: string;
  mthrNm?: string;
  sposNm?: string;
  childNm?: string;
}

export interface VendorACommon {
  userTrNo: string;
  hyphenTrNo: string;
  errYn: 'Y' | 'N';
  errCd: string;
  errMsg: string;
}

export interface VendorAResponseBody {
  common: VendorACommon;
  data: {
    stepData?: string;
    /** The PDF as a lowercase hex string. */
    hexString?: string;
    cappReqNo?: string;
  };
}
