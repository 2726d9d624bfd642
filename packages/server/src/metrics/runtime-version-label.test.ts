import { describe, expect, it } from 'vitest';
import { MAX_NO_RELEASE_SERIES, runtimeVersionLabel } from './runtime-version-label.js';

describe('runtimeVersionLabel: a runtime version is its own label only when well-formed and while there is room', () => {
  it.each([
    ['1.0.0', 0, '1.0.0'],
    ['1.4.0(41)', 0, '1.4.0(41)'],
    ['2.0.0-pre', 10, '2.0.0-pre'],
    ['exposdk:52.0.0', 0, 'exposdk:52.0.0'],
    ['1.0.0+build.7', 0, '1.0.0+build.7'],
    ['181e6e41a5c9ecb489ee46ed59e46c2514390f7a', 0, '181e6e41a5c9ecb489ee46ed59e46c2514390f7a'],
    ['1'.repeat(64), 0, '1'.repeat(64)],
    // Too long, or not shaped like a version: other.
    ['1'.repeat(65), 0, 'other'],
    ['1.0 beta', 0, 'other'],
    ['(1)', 0, 'other'],
    ['-1', 0, 'other'],
    ['1.0.0"}', 0, 'other'],
    ['버전1', 0, 'other'],
    ['1.0/2', 0, 'other'],
    // Once the metric holds its limit of series, every new value is other.
    ['1.0.0', MAX_NO_RELEASE_SERIES - 1, '1.0.0'],
    ['1.0.0', MAX_NO_RELEASE_SERIES, 'other'],
    ['1.0.0', MAX_NO_RELEASE_SERIES + 1, 'other'],
  ])('%j with %d series → %j', (value, series, label) => {
    expect(runtimeVersionLabel(value, series)).toBe(label);
  });
});
