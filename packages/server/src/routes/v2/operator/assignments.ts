import { type assignmentSchemas, ErrorBody } from '@ferry/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AssignmentService } from '../../../certificates/assignment-service.js';

/**
 * POST /v2/operator/assignments — how assignments come into being: the operator's back office (or
 * a test) gives a user a certificate task through a chosen vendor. Bearer OPERATOR_TOKEN.
 */
export function operatorAssignmentsRoute(
  app: FastifyInstance,
  options: {
    service: AssignmentService;
    requireOperator: (request: FastifyRequest) => Promise<void>;
    /** The assignment schemas of the server's vendors (contracts' assignmentSchemas over its registry). */
    schemas: ReturnType<typeof assignmentSchemas>;
  },
): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v2/operator/assignments',
    {
      bodyLimit: 16 * 1024,
      onRequest: options.requireOperator,
      schema: {
        summary: 'Create an assignment for a user (operator token)',
        tags: ['certificates'],
        body: options.schemas.create,
        response: { 201: options.schemas.operatorResponse, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (request, reply) => reply.code(201).send({ assignment: await options.service.create(request.body) }),
  );
}
