import { z } from 'zod';
import { UPDATE_POLICY_VALUES, type UpdatePolicy } from './update-policy.js';

type PolicyLiterals = [z.ZodLiteral<UpdatePolicy>, ...Array<z.ZodLiteral<UpdatePolicy>>];

/** The update policy as the release endpoint and the publisher validate it: one of the values in update-policy.ts. */
export const UpdatePolicySchema = z.union(UPDATE_POLICY_VALUES.map((value) => z.literal(value)) as PolicyLiterals);
