import { AssignmentParams, type assignmentSchemas, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { certifiedUserOf } from '../../../auth/require-certified-user.js';
import type { AssignmentService } from '../../../certificates/assignment-service.js';

/** GET /v2/user/assignments/:id — only its owner sees it; for anyone else it does not exist (404). */
export function userAssignmentsRoute(
  app: FastifyInstance,
  options: {
    service: AssignmentService;
    requireUser: (request: FastifyRequest) => Promise<void>;
    /** The assignment schemas of the server's vendors (contracts' assignmentSchemas over its registry). */
    schemas: ReturnType<typeof assignmentSchemas>;
  },
): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v2/user/assignments/:id',
    {
      onRequest: options.requireUser,
      schema: {
        summary: 'An assignment of the signed-in user (its certificateVendor picks the vendor)',
        tags: ['certificates'],
        params: AssignmentParams,
        response: { 200: options.schemas.response, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => ({
      assignment: await options.service.getForUser(request.params.id, certifiedUserOf(request).userId),
    }),
  );
}
