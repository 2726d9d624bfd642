import { z } from 'zod';
import { lineText } from '../text.js';

const wholeNumber = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * VENDOR_B's authentication state. The client copies it from the first response into the second
 * call unchanged; all four members are required.
 */
export const TwoWayInfo = z
  .object({
    jobIndex: wholeNumber,
    threadIndex: wholeNumber,
    jti: lineText().min(1).max(128),
    twoWayTimestamp: wholeNumber,
  })
  .strict();
export type TwoWayInfo = z.infer<typeof TwoWayInfo>;

/** VENDOR_A's authentication state: an opaque string returned by the first call. */
export const StepData = lineText().min(1).max(4096);
