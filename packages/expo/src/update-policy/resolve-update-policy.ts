import { resolveUpdatePolicyValue, type UpdatePolicy } from '@ferry/contracts/update-policy';

/**
 * The update policy a manifest asks for, from `extra.updatePolicy` (manifest rule 5: present only
 * when the release has one). Null, missing, malformed or unknown values are Default, so a server
 * newer than the app can add values without breaking old builds.
 */
export function resolveUpdatePolicy(manifest: unknown): UpdatePolicy {
  if (typeof manifest !== 'object' || manifest === null) return resolveUpdatePolicyValue(undefined);
  const extra: unknown = (manifest as { extra?: unknown }).extra;
  if (typeof extra !== 'object' || extra === null) return resolveUpdatePolicyValue(undefined);
  return resolveUpdatePolicyValue((extra as { updatePolicy?: unknown }).updatePolicy);
}
