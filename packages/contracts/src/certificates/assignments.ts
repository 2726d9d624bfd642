import { z } from 'zod';
import { lineText } from '../text.js';
import { CertificateVendor } from './vendor.js';

/** A task given to a user that asks for a certificate through a chosen vendor. */
export const Assignment = z.object({
  id: z.uuid(),
  certificateVendor: CertificateVendor,
  title: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type Assignment = z.infer<typeof Assignment>;

export const AssignmentResponse = z.object({ assignment: Assignment });
export type AssignmentResponse = z.infer<typeof AssignmentResponse>;

export const AssignmentParams = z.object({ id: z.uuid() });

/** Body of the operator endpoint POST /v2/operator/assignments. */
export const CreateAssignmentRequest = z
  .object({
    // One-line text: the user id is stored and compared with the token's sub, which has none either.
    userId: lineText().trim().min(1).max(255),
    certificateVendor: CertificateVendor,
    title: lineText().trim().min(1).max(200).nullish(),
  })
  .strict();
export type CreateAssignmentRequest = z.infer<typeof CreateAssignmentRequest>;

/** The operator view also names the owner. */
export const OperatorAssignmentResponse = z.object({ assignment: Assignment.extend({ userId: z.string() }) });
export type OperatorAssignmentResponse = z.infer<typeof OperatorAssignmentResponse>;
