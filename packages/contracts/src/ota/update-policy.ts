// No zod here: `@ferry/contracts/update-policy` is what the app SDK bundles, and an app should not
// carry a validation library for three integers. The schema is in update-policy-schema.ts.

/** Wire and storage values are integers and must never change. */
export const UpdatePolicy = {
  Immediate: 1,
  Notify: 2,
  Default: 3,
} as const;
export type UpdatePolicy = (typeof UpdatePolicy)[keyof typeof UpdatePolicy];

export const UPDATE_POLICY_VALUES = [UpdatePolicy.Immediate, UpdatePolicy.Notify, UpdatePolicy.Default] as const;

/** Anything that is not 1, 2 or 3 (null, missing, unknown) is Default. */
export const resolveUpdatePolicyValue = (value: unknown): UpdatePolicy =>
  value === 1 || value === 2 || value === 3 ? value : UpdatePolicy.Default;
