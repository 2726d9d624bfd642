/**
 * VENDOR_B sends and answers JSON as URL-encoded text (`+` for spaces in answers), a leftover of
 * its v1 clients. Both directions live here so client and simulator agree.
 */
export const encodeUrlEncodedJson = (value: unknown): string => encodeURIComponent(JSON.stringify(value));

/** Decodes URL-encoded JSON; plain JSON passes through (newer clients send it raw). */
export function decodeUrlEncodedJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return JSON.parse(trimmed);
  return JSON.parse(decodeURIComponent(trimmed.replace(/\+/g, ' ')));
}
