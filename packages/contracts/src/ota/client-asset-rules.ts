/**
 * What expo-updates accepts of a manifest asset, read from its sources (expo-updates 57; the
 * functions are cited in docs/history/decisions-issues-16-36.md, "Releases the client would refuse"). A release that
 * breaks one of these rules is never applied by any device, yet it would become the newest release
 * of its track and the guard's baseline: the server refuses it (400), and `ferry publish` refuses it
 * before it uploads anything. Pure functions, so the schemas in release.ts and the table test share them.
 */

/**
 * expo-updates' `isSafeFilename`: the client stores every asset in one folder under
 * `key + fileExtension` (`createFilenameForAsset`), and refuses the whole update when that name
 * holds a path separator or NUL, or is `.` or `..`.
 */
export const isSafeAssetFileName = (name: string): boolean =>
  name !== '' && name !== '.' && name !== '..' && !/[/\\\u0000]/.test(name);

/** Characters after the dot of a fileExtension. */
export const FILE_EXTENSION_MAX_CHARACTERS = 32;
/** A file name on the device: 255 bytes on Android (ext4, f2fs) and iOS (APFS). */
export const FILE_NAME_MAX_BYTES = 255;
/**
 * A key leaves room for the longest extension (a dot and 32 characters), so it fits in a file name
 * whatever extension the manifest gives it (the publisher's, or the one the server derives).
 */
export const ASSET_KEY_MAX_BYTES = FILE_NAME_MAX_BYTES - 1 - FILE_EXTENSION_MAX_CHARACTERS;

/** UTF-8 length without Buffer or TextEncoder, so the contracts run anywhere (React Native included). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Why the client could not store an asset under this key, or undefined when it can. */
export function assetKeyProblem(key: string): string | undefined {
  if (key === '') return 'must not be empty';
  if (!isSafeAssetFileName(key)) {
    return (
      'must be usable as a file name on the device: expo-updates stores the asset as key + fileExtension ' +
      'and refuses the whole update when that name holds "/", "\\" or NUL, or is "." or ".."'
    );
  }
  if (utf8Length(key) > ASSET_KEY_MAX_BYTES) {
    return `must be at most ${ASSET_KEY_MAX_BYTES} bytes of UTF-8, so key + fileExtension fits in a file name on the device (${FILE_NAME_MAX_BYTES} bytes)`;
  }
  return undefined;
}

/** A dot and 1–32 letters or digits: a safe file name part on every platform. */
export const FILE_EXTENSION_PATTERN = new RegExp(`^\\.[A-Za-z0-9]{1,${FILE_EXTENSION_MAX_CHARACTERS}}$`);

/**
 * The client compares the unpadded base64url SHA-256 it computes with the manifest's `hash` as
 * strings (FileDownloader, UpdatesUtils). 43 characters carry 258 bits: the last one holds the
 * digest's final 4 bits and 2 zero bits, so only these 16 characters can end a real hash.
 */
const SHA256_BASE64URL = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
export const isSha256Base64Url = (hash: string): boolean => SHA256_BASE64URL.test(hash);

/** The characters of an RFC 3986 URI: unreserved, reserved, and percent-escapes. */
const URI_TEXT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9A-Fa-f]{2})*$/;
/** What follows `scheme://host[:port]`: path, query and fragment, where `[` and `]` have no place. */
const AFTER_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*(.*)$/s;

/**
 * Why the client could not parse an asset URL, or undefined when it can. The manifest carries the
 * URL as stored; iOS parses it with `URL(string:)` and raises (the update fails) on anything that
 * is not an RFC 3986 URI: spaces, non-ASCII, `{}|\^"<>`, a stray `%`, a second `#`, brackets
 * outside an IPv6 host. Android's OkHttp is more lenient, so the stricter rule is the client's rule.
 */
export function assetUrlProblem(url: string): string | undefined {
  const rfc3986 = 'iOS parses asset URLs as RFC 3986 URIs and fails the update on any other';
  if (!URI_TEXT.test(url)) {
    return `must contain only URI characters: percent-encode spaces, non-ASCII and characters such as {}|\\^"<> (${rfc3986})`;
  }
  if (url.indexOf('#') !== url.lastIndexOf('#')) return `must not contain more than one "#" (${rfc3986})`;
  if (/[[\]]/.test(AFTER_AUTHORITY.exec(url)?.[1] ?? '')) {
    return `may hold "[" and "]" only around an IPv6 host (${rfc3986})`;
  }
  return undefined;
}

/**
 * Indexes of assets whose key an earlier asset of the same list holds with another hash. The
 * client downloads one file per key (Loader.downloadAllAssets keeps the first of each key; the
 * asset table's key is unique), so such an asset never reaches the device and the app gets the
 * other file in its place. The same file listed twice (same key, same hash) is harmless.
 */
export function conflictingAssetKeys(assets: ReadonlyArray<{ key?: string | undefined; hash: string }>): number[] {
  const hashByKey = new Map<string, string>();
  const conflicts: number[] = [];
  assets.forEach((asset, index) => {
    if (asset.key === undefined) return;
    const earlier = hashByKey.get(asset.key);
    if (earlier === undefined) hashByKey.set(asset.key, asset.hash);
    else if (earlier !== asset.hash) conflicts.push(index);
  });
  return conflicts;
}
