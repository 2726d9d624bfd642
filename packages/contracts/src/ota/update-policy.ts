// No zod here: `@ferry/contracts/update-policy` is what the app SDK bundles, and an app should not
// carry a validation library for three integers. The schema is in update-policy-schema.ts.

/**
 * The update policies, defined once: name and value. Wire and storage values are integers and must
 * never change. Storage also enforces their range (migration 001), as the specification requires.
 */
export const UpdatePolicy = {
  Immediate: 1,
  Notify: 2,
  Default: 3,
} as const;
export type UpdatePolicy = (typeof UpdatePolicy)[keyof typeof UpdatePolicy];
export type UpdatePolicyName = keyof typeof UpdatePolicy;

export const UPDATE_POLICY_VALUES: readonly UpdatePolicy[] = Object.values(UpdatePolicy);

const NAMES = new Map(
  Object.entries(UpdatePolicy).map(([name, value]) => [value as unknown, name as UpdatePolicyName]),
);

/** The policy's name (Immediate, Notify, Default); undefined for a value that is not a policy. */
export const updatePolicyName = (value: unknown): UpdatePolicyName | undefined => NAMES.get(value);

/** Anything that is not a policy's value (null, missing, unknown) is Default. */
export const resolveUpdatePolicyValue = (value: unknown): UpdatePolicy =>
  NAMES.has(value) ? (value as UpdatePolicy) : UpdatePolicy.Default;
