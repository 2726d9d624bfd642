import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SimulatorClock } from './simulator-clock.js';
import { Fault, type SimulatorFaults } from './simulator-faults.js';
import type { SimulatorSessions } from './simulator-sessions.js';

export interface SimulatorControlTarget {
  sessions: SimulatorSessions;
  faults: SimulatorFaults;
  clock: SimulatorClock;
  /** Vendor API calls received (control calls excluded). */
  calls: { count: number };
  /** The vendor code a rejection uses when the control call names none. */
  defaultRejectCode: string;
}

const notFound = { error: 'no such session' };

/**
 * Test and development controls under /_control: approve or reject a pending authentication,
 * inject faults and latency, move the clock. Never part of a real vendor; simulators only.
 */
export function registerSimulatorControl(app: FastifyInstance, target: SimulatorControlTarget): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const SessionParams = z.object({ id: z.string().min(1).max(128) });

  r.get('/_control/sessions', async () => ({ sessions: target.sessions.summaries() }));

  r.post('/_control/sessions/:id/approve', { schema: { params: SessionParams } }, async (request, reply) => {
    const session = target.sessions.find(request.params.id);
    if (!session) return reply.code(404).send(notFound);
    target.sessions.approve(session);
    return { id: session.id, status: target.sessions.statusOf(session) };
  });

  r.post(
    '/_control/sessions/:id/reject',
    {
      schema: {
        params: SessionParams,
        body: z.object({ code: z.string().min(1).max(32).optional() }).nullish(),
      },
    },
    async (request, reply) => {
      const session = target.sessions.find(request.params.id);
      if (!session) return reply.code(404).send(notFound);
      target.sessions.reject(session, request.body?.code ?? target.defaultRejectCode);
      return { id: session.id, status: target.sessions.statusOf(session) };
    },
  );

  r.post(
    '/_control/faults',
    { schema: { body: z.object({ fault: Fault, times: z.number().int().min(1).max(10_000).default(1) }) } },
    async (request) => {
      target.faults.inject(request.body.fault, request.body.times);
      return { queued: target.faults.pending };
    },
  );

  // Lets calls a `hold` fault holds go on; `GET /_control/calls` says how many are held.
  r.post('/_control/release', async () => ({ released: target.faults.releaseHeld() }));

  r.put(
    '/_control/latency',
    { schema: { body: z.object({ ms: z.number().int().min(0).max(600_000) }) } },
    async (request) => {
      target.faults.latencyMs = request.body.ms;
      return { latencyMs: target.faults.latencyMs };
    },
  );

  r.put(
    '/_control/approval-delay',
    { schema: { body: z.object({ ms: z.union([z.number().int().min(0), z.literal('never')]) }) } },
    async (request) => {
      target.sessions.approvalDelayMs = request.body.ms;
      return { approvalDelayMs: target.sessions.approvalDelayMs };
    },
  );

  r.post(
    '/_control/clock',
    {
      schema: {
        body: z.object({
          advanceMs: z
            .number()
            .int()
            .min(0)
            .max(365 * 24 * 3600 * 1000),
        }),
      },
    },
    async (request) => {
      target.clock.advance(request.body.advanceMs);
      return { now: new Date(target.clock.now()).toISOString() };
    },
  );

  r.get('/_control/calls', async () => ({ count: target.calls.count, held: target.faults.held }));

  r.post('/_control/reset', async () => {
    target.sessions.clear();
    target.faults.releaseHeld();
    target.faults.clear();
    target.clock.reset();
    target.calls.count = 0;
    return { reset: true };
  });
}
