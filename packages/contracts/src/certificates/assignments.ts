import { z } from 'zod';
import { lineText } from '../text.js';
import { CERTIFICATE_VENDOR_FACTS, type VendorFacts } from './vendor.js';

/**
 * The assignment schemas for a list of vendors: the built-in list (the exports below), or the
 * vendors a server's registry composes.
 */
export function assignmentSchemas<const V extends readonly VendorFacts[]>(vendors: V) {
  const certificateVendor = z.enum(vendors.map((vendor): V[number]['id'] => vendor.id));

  /** A task given to a user that asks for a certificate through a chosen vendor. */
  const assignment = z.object({
    id: z.uuid(),
    certificateVendor,
    title: z.string().nullable(),
    createdAt: z.iso.datetime(),
  });

  return {
    assignment,
    response: z.object({ assignment }),
    /** Body of the operator endpoint POST /v2/operator/assignments. */
    create: z
      .object({
        // One-line text: the user id is stored and compared with the token's sub, which has none either.
        userId: lineText().trim().min(1).max(255),
        certificateVendor,
        title: lineText().trim().min(1).max(200).nullish(),
      })
      .strict(),
    /** The operator view also names the owner. */
    operatorResponse: z.object({ assignment: assignment.extend({ userId: z.string() }) }),
  };
}

const BUILT_IN = assignmentSchemas(CERTIFICATE_VENDOR_FACTS);

/** A task given to a user that asks for a certificate through a chosen vendor. */
export const Assignment = BUILT_IN.assignment;
export type Assignment = z.infer<typeof Assignment>;

export const AssignmentResponse = BUILT_IN.response;
export type AssignmentResponse = z.infer<typeof AssignmentResponse>;

export const AssignmentParams = z.object({ id: z.uuid() });

/** Body of the operator endpoint POST /v2/operator/assignments. */
export const CreateAssignmentRequest = BUILT_IN.create;
export type CreateAssignmentRequest = z.infer<typeof CreateAssignmentRequest>;

/** The operator view also names the owner. */
export const OperatorAssignmentResponse = BUILT_IN.operatorResponse;
export type OperatorAssignmentResponse = z.infer<typeof OperatorAssignmentResponse>;
