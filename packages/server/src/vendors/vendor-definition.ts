import type { VendorFacts } from '@ferry/contracts';
import type { VendorSimulatorDefinition } from '@ferry/dev-tools';
import type { z } from 'zod';
import type { VendorClient, VendorFailureKind, VendorTiming } from './vendor-client.js';

/**
 * A vendor's configuration variables (docs/configuration.md). Each vendor also has
 * `<id>_DISABLED_PROVIDERS` and `<id>_AUTH_TTL_SECONDS`, which config/certificate-config.ts reads
 * for every vendor alike.
 */
export interface VendorConfigDefinition<Account> {
  /** The variables of an account, as messages name them: all set, or none (the simulator then stands in). */
  readonly required: readonly [string, ...string[]];
  /** Every variable it reads, each optional, as zod validates and converts it. */
  readonly variables: z.ZodRawShape;
  /** How long an authentication lives at the vendor unless `<id>_AUTH_TTL_SECONDS` is set. */
  readonly defaultAuthTtlSeconds: number;
  /** The account from the validated variables, once every one of `required` is set. */
  account(values: Readonly<Record<string, unknown>>): Account;
}

/**
 * One vendor, as one folder of vendors/ exports it, and all the server needs of it: the registry
 * (vendor-registry.ts) composes definitions, and configuration, wiring, simulators and metrics
 * read them, so no other code names a vendor. `id` and `secondCall` are the contracts' facts of it
 * (CERTIFICATE_VENDOR_FACTS for the built-in ones); `id` also prefixes its variables.
 */
export interface VendorDefinition<Account = unknown> extends VendorFacts {
  /** The `vendor` label of its metrics (docs/metrics.md). */
  readonly metricsLabel: string;
  /** What its result codes mean for an issuance; a code it does not list is a vendor failure. */
  readonly resultCodes: Readonly<Record<string, VendorFailureKind>>;
  readonly config: VendorConfigDefinition<Account>;
  /** Its client for an account; `timing` is told the duration of every HTTP exchange (metrics). */
  createClient(account: Account, timing?: VendorTiming): VendorClient;
  /** Its simulator (@ferry/dev-tools), loaded only when no account is configured, never in production. */
  simulator(): Promise<VendorSimulatorDefinition>;
}
