import { describe, expect, it } from 'vitest';
import { trackState } from './console-reads.js';

describe('trackState: what a track serves now, from its newest entry', () => {
  it.each([
    ['a roll back to embedded', { kind: 'directive' } as const, { state: 'embedded', percent: 0 }],
    ['a release without a rollout', { kind: 'release', rollout: null } as const, { state: 'complete', percent: 100 }],
    [
      'a running rollout',
      { kind: 'release', rollout: { percent: 20, state: 'running', reason: null } } as const,
      { state: 'running', percent: 20 },
    ],
    [
      'a halted rollout keeps its share',
      { kind: 'release', rollout: { percent: 50, state: 'halted', reason: 'failure rate' } } as const,
      { state: 'halted', percent: 50 },
    ],
    [
      'a reverted rollout',
      { kind: 'release', rollout: { percent: 30, state: 'reverted', reason: null } } as const,
      { state: 'reverted', percent: 30 },
    ],
    [
      'a completed rollout reaches everyone',
      { kind: 'release', rollout: { percent: 100, state: 'complete', reason: null } } as const,
      { state: 'complete', percent: 100 },
    ],
    [
      'a superseded one (never newest) reads as complete',
      { kind: 'release', rollout: { percent: 10, state: 'superseded', reason: null } } as const,
      { state: 'complete', percent: 100 },
    ],
  ])('%s', (_name, head, expected) => {
    expect(trackState(head)).toEqual(expected);
  });
});
