import { z } from 'zod';

/** Wire and storage values are integers and must never change. */
export const UpdatePolicy = {
  Immediate: 1,
  Notify: 2,
  Default: 3,
} as const;
export type UpdatePolicy = (typeof UpdatePolicy)[keyof typeof UpdatePolicy];

export const UPDATE_POLICY_VALUES = [UpdatePolicy.Immediate, UpdatePolicy.Notify, UpdatePolicy.Default] as const;

export const UpdatePolicySchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** Anything that is not 1, 2 or 3 (null, missing, unknown) is Default. */
export const resolveUpdatePolicyValue = (value: unknown): UpdatePolicy =>
  value === 1 || value === 2 || value === 3 ? value : UpdatePolicy.Default;
