import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { SimulatorClock } from './simulator-clock.js';
import { registerSimulatorControl } from './simulator-control.js';
import { SimulatorFaults } from './simulator-faults.js';
import { SimulatorSessions } from './simulator-sessions.js';

export interface SimulatorOptions {
  /** Authentication lifetime; default: the vendor's own. */
  ttlMs?: number;
  approvalDelayMs?: number | 'never';
  clock?: SimulatorClock;
  logger?: Logger;
}

/**
 * What every vendor simulator shares: a real HTTP server (Fastify) with sessions, faults, a clock
 * and the /_control endpoints. Each vendor adds its own wire format in `registerVendorRoutes`.
 */
export abstract class VendorSimulator {
  readonly app: FastifyInstance;
  readonly clock: SimulatorClock;
  readonly sessions: SimulatorSessions;
  readonly faults = new SimulatorFaults();
  readonly calls = { count: 0 };
  /** The vendor code a rejection answers when the control call names none. */
  readonly defaultRejectCode: string;
  private address: AddressInfo | undefined;

  protected constructor(
    readonly name: string,
    defaults: { ttlMs: number; rejectCode: string; garbledBody: string },
    options: SimulatorOptions,
  ) {
    this.defaultRejectCode = defaults.rejectCode;
    this.clock = options.clock ?? new SimulatorClock();
    this.sessions = new SimulatorSessions({
      clock: this.clock,
      ttlMs: options.ttlMs ?? defaults.ttlMs,
      approvalDelayMs: options.approvalDelayMs ?? 3000,
    });
    this.app = Fastify({
      ...(options.logger ? { loggerInstance: options.logger.child({ simulator: name }) } : { logger: false }),
      forceCloseConnections: true,
      logController: new LogController({ disableRequestLogging: true }),
      bodyLimit: 64 * 1024,
    }) as unknown as FastifyInstance;
    this.app.setValidatorCompiler(validatorCompiler);
    this.app.setSerializerCompiler(serializerCompiler);
    this.app.addHook('preClose', async () => this.faults.releaseAll());
    registerSimulatorControl(this.app, {
      sessions: this.sessions,
      faults: this.faults,
      clock: this.clock,
      calls: this.calls,
      defaultRejectCode: defaults.rejectCode,
    });
    const garbled = defaults.garbledBody;
    this.app.register(async (vendorScope) => {
      vendorScope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        this.calls.count++;
        if (await this.faults.apply(request, reply, garbled)) return reply;
      });
      await this.registerVendorRoutes(vendorScope);
    });
  }

  protected abstract registerVendorRoutes(scope: FastifyInstance): Promise<void> | void;

  /** Listens on 127.0.0.1 (an ephemeral port by default) and resolves to the base URL. */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await this.app.listen({ port, host });
    this.address = this.app.server.address() as AddressInfo;
    return this.url;
  }

  get url(): string {
    if (!this.address) throw new Error(`${this.name} simulator is not listening`);
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}`;
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}
