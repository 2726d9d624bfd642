import { z } from 'zod';

/**
 * A runtimeVersion is the matching key of a track. Printable ASCII only (no control characters,
 * no newlines) so it is safe in headers, object keys and log lines.
 */
export const RuntimeVersion = z
  .string()
  .min(1, 'runtimeVersion must not be empty')
  .max(255, 'runtimeVersion must be at most 255 characters')
  .regex(
    /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/,
    'runtimeVersion must be printable ASCII without leading or trailing spaces',
  );
export type RuntimeVersion = z.infer<typeof RuntimeVersion>;

/** Pre-release tracks (`<APP_VERSION>-pre`) are never guarded. */
export const isPrereleaseRuntimeVersion = (runtimeVersion: string): boolean => runtimeVersion.endsWith('-pre');
