import type { MockInstance } from 'vitest';

/**
 * How many release manifests a spy on `signatureHeader` saw signed. Directive bodies
 * (`{"type":…}`) do not count: an instance signs its noUpdateAvailable answer once as it starts.
 */
export const manifestSignings = (spy: MockInstance<(bytes: Buffer) => string>): number =>
  spy.mock.calls.filter(([bytes]) => !bytes.toString('utf8').startsWith('{"type":')).length;
