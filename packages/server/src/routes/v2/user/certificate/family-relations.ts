import { CreateFamilyRelationsV2Request, FamilyRelationsV2Response } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import { type CertificateRouteContext, certificateIssueRoute } from './issue-route.js';

const nameOrNull = (name: string | null | undefined): string | null => (name ? name : null);

/** POST /v2/user/certificate/family-relations → { familyRelationsCertificate }. */
export function familyRelationsRoute(app: FastifyInstance, context: CertificateRouteContext): void {
  certificateIssueRoute(app, context, {
    document: 'family-relations',
    summary: 'Family relations certificate: first call starts simple authentication, second call issues the PDF',
    body: CreateFamilyRelationsV2Request,
    response: FamilyRelationsV2Response,
    toCommand: (body, userId) => ({
      userId,
      document: 'family-relations',
      vendor: body.vendor,
      provider: body.loginOrgCd,
      front: body.rrn1,
      encryptedBack: { value: body.rrn2Enc, field: 'rrn2Enc' },
      details: {
        document: 'family-relations',
        father: nameOrNull(body.fthrNm),
        mother: nameOrNull(body.mthrNm),
        spouse: nameOrNull(body.sposNm),
        child: nameOrNull(body.childNm),
      },
      stepData: body.stepData ?? null,
      twoWayInfo: body.twoWayInfo ?? null,
      assignmentId: body.assignmentId ?? null,
    }),
  });
}
