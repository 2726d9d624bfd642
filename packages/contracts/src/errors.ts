import { z } from 'zod';

/**
 * Codes are UPPER_SNAKE. The schema takes any such code, so a client generated from an older
 * document still reads a newer server's refusals; error-catalogue.ts lists the codes Ferry answers.
 */
export const ErrorCode = z.string().regex(/^[A-Z][A-Z0-9_]*$/);

export const ErrorBody = z.object({
  error: z.object({
    code: ErrorCode,
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** One failing field, as listed in details.fields of a VALIDATION_FAILED body. */
export interface FieldIssue {
  path: string;
  message: string;
}
