import { UpdatePolicy } from '@ferry/contracts';
import { describe, expect, it } from 'vitest';
import { resolveUpdatePolicy } from '../../src/update-policy/resolve-update-policy';

describe('resolveUpdatePolicy (spec "Update policy enum", manifest rule 5)', () => {
  it.each([
    ['Immediate (1)', { extra: { updatePolicy: 1 } }, UpdatePolicy.Immediate],
    ['Notify (2)', { extra: { updatePolicy: 2 } }, UpdatePolicy.Notify],
    ['Default (3)', { extra: { updatePolicy: 3 } }, UpdatePolicy.Default],
    ['null policy', { extra: { updatePolicy: null } }, UpdatePolicy.Default],
    ['missing policy (rule 5: omitted when the release has none)', { extra: { expoClient: {} } }, UpdatePolicy.Default],
    ['missing extra', { id: 'x' }, UpdatePolicy.Default],
    ['null extra', { extra: null }, UpdatePolicy.Default],
    ['extra that is not an object', { extra: 'notify' }, UpdatePolicy.Default],
    ['unknown integer 0', { extra: { updatePolicy: 0 } }, UpdatePolicy.Default],
    ['unknown integer 4', { extra: { updatePolicy: 4 } }, UpdatePolicy.Default],
    ['negative', { extra: { updatePolicy: -1 } }, UpdatePolicy.Default],
    ['fraction', { extra: { updatePolicy: 2.5 } }, UpdatePolicy.Default],
    ['numeric string', { extra: { updatePolicy: '2' } }, UpdatePolicy.Default],
    ['name instead of value', { extra: { updatePolicy: 'Notify' } }, UpdatePolicy.Default],
    ['boolean', { extra: { updatePolicy: true } }, UpdatePolicy.Default],
    ['object', { extra: { updatePolicy: { value: 2 } } }, UpdatePolicy.Default],
    ['NaN', { extra: { updatePolicy: Number.NaN } }, UpdatePolicy.Default],
    ['null manifest', null, UpdatePolicy.Default],
    ['undefined manifest', undefined, UpdatePolicy.Default],
    ['string manifest', '{"extra":{"updatePolicy":2}}', UpdatePolicy.Default],
  ])('%s → %i', (_case, manifest, expected) => {
    expect(resolveUpdatePolicy(manifest)).toBe(expected);
  });
});
