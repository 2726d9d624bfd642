import { type Command, InvalidArgumentError } from 'commander';
import { CliError } from '../cli-error.js';
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

/**
 * Starts the simulator `ferry vendor-sim <name>` names (a, b, …); account values come from the
 * vendor's server variables when set in `env`, else are generated.
 */
export async function startVendorSimulator(
  name: string,
  options: VendorSimOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningSimulator & { vendor: string }> {
  const { VENDOR_SIMULATORS } = await loadSimulators('vendor-sim');
  const definition = Object.values(VENDOR_SIMULATORS).find((simulator) => simulator.cliName === name);
  if (!definition) {
    const names = Object.values(VENDOR_SIMULATORS).map((simulator) => simulator.cliName);
    throw new CliError(`ferry vendor-sim: no vendor simulator is named ${name}; choose ${names.join(', ')}`);
  }
  const common = { approvalDelayMs: options.approvalDelay, ...(options.ttl ? { ttlMs: options.ttl * 1000 } : {}) };
  const account = await definition.account(env);
  const simulator = definition.create(account, common);
  const url = await simulator.listen(options.port, options.host);
  return { vendor: definition.vendor, url, env: definition.env(url, account), close: () => simulator.close() };
}

/** `ferry vendor-sim <a|b|…> --port <n>`: one vendor simulator as a standalone HTTP server. */
export function vendorSimCommand(out: { write(text: string): unknown } = process.stdout) {
  return (program: Command): void => {
    program
      .command('vendor-sim')
      .description('Run a certificate vendor simulator until interrupted')
      .argument('<vendor>', "the simulator's short name in @ferry/dev-tools, e.g. a (VENDOR_A) or b (VENDOR_B)")
      .option('--port <n>', 'port to listen on (0 = any free port)', port, 0)
      .option('--host <host>', 'address to listen on', '127.0.0.1')
      .option(
        '--approval-delay <ms>',
        'the user approves this long after the first call, or "never"',
        approvalDelay,
        3000,
      )
      .option('--ttl <seconds>', "authentication lifetime (default: the vendor's own)", seconds)
      .action(async (name: string, options: VendorSimOptions) => {
        const running = await startVendorSimulator(name, options);
        const lines = [
          `${running.vendor} simulator listening on ${running.url}`,
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
