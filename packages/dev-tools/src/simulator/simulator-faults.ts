import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/** One injected failure, applied to the next vendor call(s). */
export const Fault = z.discriminatedUnion('kind', [
  /** An HTTP error status with a short body. */
  z.object({ kind: z.literal('status'), status: z.number().int().min(400).max(599) }),
  /** 200 with a body that is not the vendor's format. */
  z.object({ kind: z.literal('garbled') }),
  /** Accept the connection and never answer. */
  z.object({ kind: z.literal('hang') }),
  /** Drop the connection without an answer. */
  z.object({ kind: z.literal('reset') }),
  /** Answer normally, but this much later. */
  z.object({ kind: z.literal('delay'), ms: z.number().int().min(0).max(600_000) }),
  /**
   * Test latch: hold the call until `POST /_control/release` (or `releaseHeld()`), then answer
   * normally, as the vendor's state is then. Lets a test order events without sleeping.
   */
  z.object({ kind: z.literal('hold') }),
]);
export type Fault = z.infer<typeof Fault>;

/** Queued one-shot faults plus a standing latency; what the control endpoint manipulates. */
export class SimulatorFaults {
  latencyMs = 0;
  private readonly queue: Fault[] = [];
  private readonly hanging = new Set<() => void>();
  private readonly holding = new Set<() => void>();

  inject(fault: Fault, times = 1): void {
    for (let i = 0; i < times; i++) this.queue.push(fault);
  }

  clear(): void {
    this.queue.length = 0;
    this.latencyMs = 0;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Vendor calls a `hold` fault is holding right now. */
  get held(): number {
    return this.holding.size;
  }

  /** Lets every held call go on (they then answer normally); answers how many there were. */
  releaseHeld(): number {
    const released = this.holding.size;
    for (const release of this.holding) release();
    this.holding.clear();
    return released;
  }

  /** Releases every hanging and held connection (on close). */
  releaseAll(): void {
    for (const release of this.hanging) release();
    this.releaseHeld();
  }

  /**
   * Applies latency and the next queued fault to a vendor request. Returns true when the fault
   * answered (or dropped) the request, so the route must not run.
   */
  async apply(request: FastifyRequest, reply: FastifyReply, garbledBody: string): Promise<boolean> {
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    const fault = this.queue.shift();
    if (!fault) return false;
    switch (fault.kind) {
      case 'delay':
        await sleep(fault.ms);
        return false;
      case 'hold':
        await new Promise<void>((resolve) => this.holding.add(resolve));
        return false;
      case 'status':
        await reply.code(fault.status).type('text/plain').send(`simulated ${fault.status}`);
        return true;
      case 'garbled':
        await reply.code(200).type('application/json').send(garbledBody);
        return true;
      case 'reset':
        reply.hijack();
        request.raw.socket.destroy();
        return true;
      case 'hang':
        reply.hijack();
        await new Promise<void>((resolve) => {
          const release = () => {
            this.hanging.delete(release);
            resolve();
          };
          this.hanging.add(release);
          request.raw.socket.once('close', release);
        });
        request.raw.socket.destroy();
        return true;
    }
  }
}
