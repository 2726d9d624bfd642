import { type Command, InvalidArgumentError } from 'commander';
import { loadSimulators } from '../dev-tools.js';

interface VendorSimOptions {
  port: number;
  host: string;
  approvalDelay: number | 'never';
  ttl?: number;
}

const port = (raw: string): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new InvalidArgumentError('a port from 0 to 65535');
  return value;
};

const approvalDelay = (raw: string): number | 'never' => {
  if (raw === 'never') return 'never';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError('milliseconds, or "never"');
  return value;
};

const seconds = (raw: string): number => {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 86_400) throw new InvalidArgumentError('1 to 86400 seconds');
  return value;
};

export interface RunningSimulator {
  url: string;
  /** The variables that point a Ferry server at this simulator. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts one simulator; account values come from the VENDOR_* environment when set, else are generated. */
export async function startVendorSimulator(
  vendor: 'a' | 'b',
  options: VendorSimOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningSimulator> {
  const sims = await loadSimulators('vendor-sim');
  const common = { approvalDelayMs: options.approvalDelay, ...(options.ttl ? { ttlMs: options.ttl * 1000 } : {}) };
  if (vendor === 'a') {
    const generated = sims.generateVendorAAccount();
    const account = {
      userId: env.VENDOR_A_USER_ID || generated.userId,
      hkey: env.VENDOR_A_HKEY || generated.hkey,
      ekey: env.VENDOR_A_EKEY ? Buffer.from(env.VENDOR_A_EKEY, 'utf8') : generated.ekey,
    };
    const simulator = new sims.VendorASimulator(account, common);
    const url = await simulator.listen(options.port, options.host);
    return { url, env: sims.vendorASimulatorEnv(url, account), close: () => simulator.close() };
  }
  const generated = await sims.generateVendorBAccount();
  const account = {
    ...generated,
    clientId: env.VENDOR_B_CLIENT_ID || generated.clientId,
    clientSecret: env.VENDOR_B_CLIENT_SECRET || generated.clientSecret,
  };
  const simulator = new sims.VendorBSimulator(account, common);
  const url = await simulator.listen(options.port, options.host);
  return {
    url,
    env: sims.vendorBSimulatorEnv(url, account),
    close: () => simulator.close(),
  };
}

/** `ferry vendor-sim a|b --port <n>`: one vendor simulator as a standalone HTTP server. */
export function vendorSimCommand(out: { write(text: string): unknown } = process.stdout) {
  return (program: Command): void => {
    program
      .command('vendor-sim')
      .description('Run a certificate vendor simulator (a: stepData style, b: twoWayInfo style) until interrupted')
      .argument('<vendor>', 'a or b', (raw: string) => {
        if (raw !== 'a' && raw !== 'b') throw new InvalidArgumentError('a or b');
        return raw;
      })
      .option('--port <n>', 'port to listen on (0 = any free port)', port, 0)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option(
        '--approval-delay <ms>',
        'the user approves this long after the first call, or "never"',
        approvalDelay,
        3000,
      )
      .option('--ttl <seconds>', 'authentication lifetime (default 300 for a, 270 for b)', seconds)
      .action(async (vendor: 'a' | 'b', options: VendorSimOptions) => {
        const running = await startVendorSimulator(vendor, options);
        const lines = [
          `VENDOR_${vendor.toUpperCase()} simulator listening on ${running.url}`,
          `Control: ${running.url}/_control/sessions (approve: POST ${running.url}/_control/sessions/latest/approve)`,
          'Point a Ferry server at it with:',
          ...Object.entries(running.env).map(([name, value]) => `  ${name}=${value}`),
        ];
        out.write(`${lines.join('\n')}\n`);
        await new Promise<void>((resolve) => {
          const stop = () => resolve();
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
        await running.close();
      });
  };
}

export const registerVendorSim = vendorSimCommand();
