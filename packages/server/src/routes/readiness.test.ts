import { describe, expect, it } from 'vitest';
import { type Readiness, type ReadinessInput, readiness, ServableWithoutDatabase } from './readiness.js';

describe('readiness', () => {
  it.each([
    ['database answers, nothing cached', { databaseReachable: true, servableWithoutDatabase: 0 }, 'ready'],
    ['database answers, manifests cached', { databaseReachable: true, servableWithoutDatabase: 12 }, 'ready'],
    ['database down, manifests still servable', { databaseReachable: false, servableWithoutDatabase: 1 }, 'degraded'],
    ['database down, nothing servable', { databaseReachable: false, servableWithoutDatabase: 0 }, 'unready'],
  ] as Array<[string, ReadinessInput, Readiness]>)('%s → %s', (_name, input, expected) => {
    expect(readiness(input)).toBe(expected);
  });
});

describe('ServableWithoutDatabase', () => {
  it('adds up what every source can serve, read at each count', () => {
    const servable = new ServableWithoutDatabase();
    expect(servable.count()).toBe(0);
    let manifests = 2;
    servable.add(() => manifests);
    servable.add(() => 1);
    expect(servable.count()).toBe(3);
    manifests = 0;
    expect(servable.count()).toBe(1);
  });
});
