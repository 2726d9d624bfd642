import type { VendorFacts } from '@ferry/contracts';
import type { VendorDefinition } from './vendor-definition.js';

/** Ids prefix the vendor's variables (`VENDOR_A_URL`), so they are upper-case words. */
const VENDOR_ID = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/** The vendors one server issues through, composed from their definitions. */
export interface VendorRegistry {
  /** In the order given: the order configuration reads them and start-up announces them. */
  readonly definitions: readonly VendorDefinition[];
  /** What the API schemas need of each (contracts' certificateRequestSchemas, assignmentSchemas). */
  readonly facts: readonly VendorFacts[];
  readonly metricsLabels: readonly string[];
  get(id: string): VendorDefinition | undefined;
}

/** Composes vendor definitions into a registry; refuses duplicate or malformed ids and labels. */
export function composeVendors(definitions: readonly VendorDefinition[]): VendorRegistry {
  const byId = new Map<string, VendorDefinition>();
  for (const definition of definitions) {
    if (!VENDOR_ID.test(definition.id)) throw new Error(`vendor id ${definition.id} is not an upper-case word`);
    if (byId.has(definition.id)) throw new Error(`vendor ${definition.id} is defined twice`);
    byId.set(definition.id, definition);
  }
  const metricsLabels = definitions.map((definition) => definition.metricsLabel);
  if (new Set(metricsLabels).size !== metricsLabels.length || metricsLabels.includes('other')) {
    throw new Error(`vendor metrics labels must be distinct and not "other": ${metricsLabels.join(', ')}`);
  }
  return {
    definitions: [...definitions],
    facts: definitions.map(({ id, secondCall }) => ({ id, secondCall })),
    metricsLabels,
    get: (id) => byId.get(id),
  };
}
