import { CERTIFICATE_VENDOR_FACTS } from '@ferry/contracts';
import { VENDOR_SIMULATORS } from '@ferry/dev-tools';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_VENDORS } from './built-in-vendors.js';
import { vendorA } from './vendor-a/definition.js';
import type { VendorDefinition } from './vendor-definition.js';
import { composeVendors } from './vendor-registry.js';

describe('the vendor registry', () => {
  it('composes distinct vendors, and names the clashing labels when it refuses', () => {
    const registry = composeVendors([vendorA, { ...vendorA, id: 'VENDOR_C', metricsLabel: 'c' }]);
    expect(registry.metricsLabels).toEqual([vendorA.metricsLabel, 'c']);
    expect(registry.definitions.map((definition) => definition.id)).toEqual([vendorA.id, 'VENDOR_C']);
    expect(registry.facts).toEqual([
      { id: vendorA.id, secondCall: vendorA.secondCall },
      { id: 'VENDOR_C', secondCall: vendorA.secondCall },
    ]);
    expect(registry.get('VENDOR_C')?.metricsLabel).toBe('c');
    expect(registry.get('VENDOR_D')).toBeUndefined();
    const label = vendorA.metricsLabel;
    expect(() => composeVendors([vendorA, { ...vendorA, id: 'VENDOR_C' }])).toThrow(
      `vendor metrics labels must be distinct and not "other": ${label}, ${label}`,
    );
  });

  it('composes the built-in vendors as contracts list them: ids, second calls, order', () => {
    expect(BUILT_IN_VENDORS.facts).toEqual(CERTIFICATE_VENDOR_FACTS);
    for (const { id } of CERTIFICATE_VENDOR_FACTS) expect(BUILT_IN_VENDORS.get(id)?.id).toBe(id);
    expect(BUILT_IN_VENDORS.get('VENDOR_Z')).toBeUndefined();
  });

  it("finds each built-in vendor's simulator, standing in for that vendor", async () => {
    for (const definition of BUILT_IN_VENDORS.definitions) {
      const simulator = await definition.simulator();
      expect(simulator.vendor).toBe(definition.id);
      expect(VENDOR_SIMULATORS[definition.id as keyof typeof VENDOR_SIMULATORS]).toBe(simulator);
    }
  });

  it.each([
    ['a vendor twice', [vendorA, vendorA], /defined twice/],
    ['an id that cannot prefix variables', [{ ...vendorA, id: 'vendor-c', metricsLabel: 'c' }], /upper-case word/],
    ['two vendors under one metrics label', [vendorA, { ...vendorA, id: 'VENDOR_C' }], /metrics labels/],
    ['the metrics label every unknown vendor counts as', [{ ...vendorA, metricsLabel: 'other' }], /metrics labels/],
  ])('refuses %s', (_case, definitions, message) => {
    expect(() => composeVendors(definitions as VendorDefinition[])).toThrow(message);
  });
});
