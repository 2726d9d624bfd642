import type { IncomingHttpHeaders } from 'node:http';

/** What a device that can apply a bundle patch says about itself on its launch-asset request. */
export interface PatchRequest {
  /** The update it runs (lower-cased): an OTA update's id, or its build's embedded update. */
  currentUpdateId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * Whether a download asks for a bundle patch, and from which update. expo-updates 55+ sends
 * `A-IM: bsdiff` and `Expo-Current-Update-ID` (a lower-case UUID) on its launch-asset request
 * (FileDownloader.kt `createRequestForAsset`, FileDownloader.swift). `A-IM` is a list of
 * instance-manipulations (RFC 3229), each possibly with parameters; any other header, or an id that
 * is not a UUID, asks for the full bundle.
 */
export function patchRequestOf(headers: IncomingHttpHeaders): PatchRequest | undefined {
  const aIm = one(headers['a-im']);
  if (!aIm) return undefined;
  const asks = aIm.split(',').some((item) => item.split(';', 1)[0]!.trim().toLowerCase() === 'bsdiff');
  if (!asks) return undefined;
  const current = one(headers['expo-current-update-id'])?.trim().toLowerCase();
  if (!current || !UUID.test(current)) return undefined;
  return { currentUpdateId: current };
}
