import { DEFAULT_APP } from '@ferry/contracts';
/**
 * Object keys are relative, slash-separated paths. Every adapter validates them the same way, so a
 * key that one adapter accepts can never escape the store of another: no absolute paths, no `.` or
 * `..` segments, no empty segments, no backslashes, nothing outside printable ASCII.
 */

export class InvalidObjectKeyError extends Error {
  override name = 'InvalidObjectKeyError';
}

export const MAX_OBJECT_KEY_BYTES = 1024;

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Returns the key unchanged, or throws InvalidObjectKeyError saying why it is unsafe. */
export function validateObjectKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKeyError('the object key is empty');
  if (key.length > MAX_OBJECT_KEY_BYTES) {
    throw new InvalidObjectKeyError(`the object key is longer than ${MAX_OBJECT_KEY_BYTES} characters`);
  }
  if (!PRINTABLE_ASCII.test(key)) throw new InvalidObjectKeyError('the object key must be printable ASCII');
  if (key.includes('\\')) throw new InvalidObjectKeyError('the object key must not contain a backslash');
  if (key.startsWith('/')) throw new InvalidObjectKeyError('the object key must be relative');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidObjectKeyError('the object key must not contain empty segments');
    if (segment === '.' || segment === '..') {
      throw new InvalidObjectKeyError('the object key must not contain "." or ".." segments');
    }
  }
  return key;
}

export const isValidObjectKey = (key: string): boolean => {
  try {
    validateObjectKey(key);
    return true;
  } catch {
    return false;
  }
};

/**
 * Returns a listing prefix unchanged, or throws InvalidObjectKeyError. A prefix is a key's start:
 * empty (everything), whole segments ending in a slash (`updates/`), or ending part-way through a
 * segment (`updates/prod`). Its whole segments follow the key rules, so a listing cannot leave the store.
 */
export function validateObjectKeyPrefix(prefix: string): string {
  if (typeof prefix !== 'string') throw new InvalidObjectKeyError('the prefix must be a string');
  if (prefix === '') return prefix;
  if (prefix.length > MAX_OBJECT_KEY_BYTES) {
    throw new InvalidObjectKeyError(`the prefix is longer than ${MAX_OBJECT_KEY_BYTES} characters`);
  }
  if (!PRINTABLE_ASCII.test(prefix)) throw new InvalidObjectKeyError('the prefix must be printable ASCII');
  if (prefix.includes('\\')) throw new InvalidObjectKeyError('the prefix must not contain a backslash');
  const slash = prefix.lastIndexOf('/');
  if (slash !== -1) validateObjectKey(prefix.slice(0, slash));
  return prefix;
}

/** The URL path form of a key: each segment percent-encoded, so `%`, `?` and `#` survive the trip. */
export const objectKeyToUrlPath = (key: string): string =>
  validateObjectKey(key)
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');

/**
 * The key a raw (still encoded) URL path names. Each segment is decoded on its own, so an encoded
 * slash (`%2F`) cannot create a new segment and `%2e%2e` is caught as `..`.
 */
export function urlPathToObjectKey(rawPath: string): string {
  const segments = rawPath.split('/').map((segment) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw new InvalidObjectKeyError('the object path is not valid percent-encoding');
    }
    if (decoded.includes('/')) throw new InvalidObjectKeyError('the object path must not contain encoded slashes');
    return decoded;
  });
  return validateObjectKey(segments.join('/'));
}

/** Characters kept as-is in a key segment built from user data; everything else is percent-encoded. */
const SAFE_SEGMENT_CHAR = /[A-Za-z0-9._~()+,=@-]/;

/**
 * Turns free text (a runtimeVersion such as `1.2.0(57)`, or anything else printable) into one safe key
 * segment. Reversible, never empty, never `.` or `..`, never a slash.
 */
export function keySegmentOf(text: string): string {
  let encoded = '';
  for (const char of text) {
    encoded += SAFE_SEGMENT_CHAR.test(char)
      ? char
      : Array.from(Buffer.from(char, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(
          '',
        );
  }
  if (encoded === '') throw new InvalidObjectKeyError('a key segment cannot be built from empty text');
  // `.` and `..` would be path segments with a meaning of their own.
  return /^\.+$/.test(encoded) ? encoded.replaceAll('.', '%2E') : encoded;
}

/** Prefix of every update asset; objects under it are public and immutable. */
export const UPDATE_ASSETS_PREFIX = 'updates/';

/** Where an app's update assets live: `updates/` for the default app (as before apps), `apps/<slug>/updates/` for any other. */
export const updateAssetsPrefixOf = (app: string): string =>
  app === DEFAULT_APP ? UPDATE_ASSETS_PREFIX : `apps/${app}/${UPDATE_ASSETS_PREFIX}`;

/**
 * `<app prefix>updates/<channel>/<runtimeVersion>/assets/<hash>`, the key decisions.md §4 fixes,
 * under the app's own prefix: two apps never share an object, even of the same content.
 */
export const updateAssetKey = (app: string, channel: string, runtimeVersion: string, hash: string): string =>
  validateObjectKey(
    `${updateAssetsPrefixOf(app)}${keySegmentOf(channel)}/${keySegmentOf(runtimeVersion)}/assets/${hash}`,
  );

const ASSET_KEY = /^(?:apps\/([a-z][a-z0-9-]{1,39})\/)?updates\/[^/]+\/[^/]+\/assets\/([A-Za-z0-9_-]{43})$/;

/** The hash an update-asset key ends with, or undefined for any other key. */
export function assetHashOfKey(key: string): string | undefined {
  return ASSET_KEY.exec(key)?.[2];
}

/** The app whose update asset a key names, or undefined for any other key. */
export function appOfAssetKey(key: string): string | undefined {
  const match = ASSET_KEY.exec(key);
  return match ? (match[1] ?? DEFAULT_APP) : undefined;
}

/** Whether a key is under an app's update-asset prefix (public and immutable): `updates/…` or `apps/<slug>/updates/…`. */
export const isUpdateAssetKey = (key: string): boolean =>
  key.startsWith(UPDATE_ASSETS_PREFIX) || /^apps\/[a-z][a-z0-9-]{1,39}\/updates\//.test(key);
