import {
  CERTIFICATE_DOCUMENTS,
  type CertificateDocument,
  type certificateRequestSchemas,
  formOf,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { IssueCommand } from '../../../../certificates/issuance-service.js';
import { type CertificateRouteContext, certificateIssueRoute } from './issue-route.js';

/** The request schemas of the server's vendors (contracts' certificateRequestSchemas over its registry). */
export type CertificateRequestSchemas = ReturnType<typeof certificateRequestSchemas>;
type ResidentBody = z.infer<CertificateRequestSchemas['resident']>;
type FamilyBody = z.infer<CertificateRequestSchemas['family']>;

const nameOrNull = (name: string | null | undefined): string | null => (name ? name : null);

/** What every form's body gives the command alike. */
const commonOf = (document: CertificateDocument, body: ResidentBody | FamilyBody, userId: string) => ({
  userId,
  document,
  vendor: body.vendor,
  provider: body.loginOrgCd,
  stepData: body.stepData ?? null,
  twoWayInfo: body.twoWayInfo ?? null,
  assignmentId: body.assignmentId ?? null,
});

const residentCommand =
  (document: CertificateDocument) =>
  (body: ResidentBody, userId: string): IssueCommand => ({
    ...commonOf(document, body, userId),
    front: body.birthDate,
    encryptedBack: { value: body.identityEnc, field: 'identityEnc' },
    details: { form: 'resident', sido: body.sido, sigg: body.sigg },
  });

const familyCommand =
  (document: CertificateDocument) =>
  (body: FamilyBody, userId: string): IssueCommand => ({
    ...commonOf(document, body, userId),
    front: body.rrn1,
    encryptedBack: { value: body.rrn2Enc, field: 'rrn2Enc' },
    details: {
      form: 'family',
      father: nameOrNull(body.fthrNm),
      mother: nameOrNull(body.mthrNm),
      spouse: nameOrNull(body.sposNm),
      child: nameOrNull(body.childNm),
    },
  });

/**
 * POST /v2/user/certificate/<document> for every document of the contracts, in their order: the
 * body is the document's form, the answer is wrapped in its key (e.g. resident-certificate →
 * { residentCertificate }).
 */
export function certificateRoutes(
  app: FastifyInstance,
  context: CertificateRouteContext,
  requests: CertificateRequestSchemas,
): void {
  for (const document of CERTIFICATE_DOCUMENTS) {
    if (formOf(document) === 'family') {
      certificateIssueRoute(app, context, { document, body: requests.family, toCommand: familyCommand(document) });
    } else {
      certificateIssueRoute(app, context, { document, body: requests.resident, toCommand: residentCommand(document) });
    }
  }
}
