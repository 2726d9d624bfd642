import { CreateResidentCertificateV2Request, ResidentAbstractV2Response } from '@ferry/contracts';
import type { FastifyInstance } from 'fastify';
import { type CertificateRouteContext, certificateIssueRoute } from './issue-route.js';
import { residentCommand } from './resident-certificate.js';

/** POST /v2/user/certificate/resident-abstract → { residentAbstract }. */
export function residentAbstractRoute(app: FastifyInstance, context: CertificateRouteContext): void {
  certificateIssueRoute(app, context, {
    document: 'resident-abstract',
    summary: 'Resident registration abstract: first call starts simple authentication, second call issues the PDF',
    body: CreateResidentCertificateV2Request,
    response: ResidentAbstractV2Response,
    toCommand: residentCommand('resident-abstract'),
  });
}
