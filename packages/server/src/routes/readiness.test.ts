import { describe, expect, it } from 'vitest';
import { type Readiness, type ReadinessInput, readiness, ServableWithoutDatabase, StartupWork } from './readiness.js';

describe('readiness', () => {
  it.each([
    ['starting, database answers', { starting: true, databaseReachable: true, servableWithoutDatabase: 0 }, 'starting'],
    ['starting, database down', { starting: true, databaseReachable: false, servableWithoutDatabase: 3 }, 'starting'],
    [
      'database answers, nothing cached',
      { starting: false, databaseReachable: true, servableWithoutDatabase: 0 },
      'ready',
    ],
    [
      'database answers, manifests cached',
      { starting: false, databaseReachable: true, servableWithoutDatabase: 12 },
      'ready',
    ],
    [
      'database down, manifests still servable',
      { starting: false, databaseReachable: false, servableWithoutDatabase: 1 },
      'degraded',
    ],
    [
      'database down, nothing servable',
      { starting: false, databaseReachable: false, servableWithoutDatabase: 0 },
      'unready',
    ],
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

describe('StartupWork', () => {
  it('is pending from its start until every job settled, in order, a failed job included', async () => {
    const work = new StartupWork();
    const order: string[] = [];
    let finishLoad!: () => void;
    work.add(
      () =>
        new Promise<void>((resolve) => {
          finishLoad = () => {
            order.push('load');
            resolve();
          };
        }),
    );
    work.add(async () => {
      order.push('warm-up');
      throw new Error('warm-up failed');
    });
    work.add(async () => {
      order.push('after');
    });
    expect(work.pending).toBe(false);
    const run = work.start();
    expect(work.start()).toBe(run);
    expect(work.pending).toBe(true);
    finishLoad();
    await run;
    expect(order).toEqual(['load', 'warm-up', 'after']);
    expect(work.pending).toBe(false);
  });
});
