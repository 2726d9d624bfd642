import { z } from 'zod';

/** The update policy as the release endpoint and the publisher validate it (update-policy.ts). */
export const UpdatePolicySchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);
