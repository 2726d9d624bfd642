import { describe, expect, it } from 'vitest';
import { logsRequestLines } from './logger.js';

describe('logsRequestLines', () => {
  it.each([
    ['trace', true],
    ['debug', true],
    ['info', false],
    ['warn', false],
    ['error', false],
    ['fatal', false],
    ['silent', false],
  ])('at %s: %s', (level, logged) => {
    expect(logsRequestLines({ level })).toBe(logged);
  });
});
