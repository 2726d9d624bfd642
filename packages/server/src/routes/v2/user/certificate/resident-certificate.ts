import {
  type CreateResidentCertificateV2Request as Body,
  CreateResidentCertificateV2Request,
  ResidentCertificateV2Response,
} from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import type { IssueCommand } from '../../../../certificates/issuance-service.js';
import { type CertificateRouteContext, certificateIssueRoute } from './issue-route.js';

/** Maps a resident-certificate or resident-abstract body onto the service's command. */
export const residentCommand =
  (document: 'resident-certificate' | 'resident-abstract') =>
  (body: Body, userId: string): IssueCommand => ({
    userId,
    document,
    vendor: body.vendor,
    provider: body.loginOrgCd,
    front: body.birthDate,
    encryptedBack: { value: body.identityEnc, field: 'identityEnc' },
    details: { document, sido: body.sido, sigg: body.sigg },
    stepData: body.stepData ?? null,
    twoWayInfo: body.twoWayInfo ?? null,
    assignmentId: body.assignmentId ?? null,
  });

/** POST /v2/user/certificate/resident-certificate → { residentCertificate }. */
export function residentCertificateRoute(app: FastifyInstance, context: CertificateRouteContext): void {
  certificateIssueRoute(app, context, {
    document: 'resident-certificate',
    summary: 'Resident registration copy: first call starts simple authentication, second call issues the PDF',
    body: CreateResidentCertificateV2Request,
    response: ResidentCertificateV2Response,
    toCommand: residentCommand('resident-certificate'),
  });
}
