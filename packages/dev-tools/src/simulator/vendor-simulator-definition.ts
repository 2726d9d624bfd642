import type { SimulatorOptions, VendorSimulator } from './simulator-server.js';

/** The environment `ferry vendor-sim` runs in: account values set there are used as given. */
export type SimulatorEnv = Readonly<Record<string, string | undefined>>;

/**
 * A vendor's simulator, as the Ferry server (when no account is configured) and `ferry vendor-sim`
 * start it; the server's vendor definition names it. One per vendor folder of this package,
 * composed in vendor-simulators.ts.
 */
export interface VendorSimulatorDefinition<Account = unknown> {
  /** The vendor it stands in for (its id in @ferry/contracts). */
  readonly vendor: string;
  /** `ferry vendor-sim <name>`. */
  readonly cliName: string;
  /** Its wire style, as `ferry vendor-sim` describes it (`stepData style`). */
  readonly style: string;
  /** An account nobody configured; values `env` sets (the server's variables for the vendor) are kept. */
  account(env?: SimulatorEnv): Promise<Account>;
  /** A simulator of the account, not yet listening. */
  create(account: Account, options: SimulatorOptions): VendorSimulator;
  /** The server configuration (docs/configuration.md) that points the vendor at it, listening on `url`. */
  env(url: string, account: Account): Record<string, string>;
}
