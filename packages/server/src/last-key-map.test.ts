import { describe, expect, it } from 'vitest';
import { LastKeyMap } from './last-key-map.js';

describe('LastKeyMap', () => {
  it('answers like a Map, whichever key was looked up last', () => {
    const map = new LastKeyMap<string | undefined, number>();
    map.set('a', 1);
    map.set(undefined, 2);
    const lookups: Array<[string | undefined, number | undefined]> = [
      ['a', 1],
      ['a', 1],
      [undefined, 2],
      [undefined, 2],
      ['b', undefined],
      ['a', 1],
      [`${'a'}`, 1],
      ['b', undefined],
      [undefined, 2],
    ];
    for (const [key, value] of lookups) expect(map.get(key)).toBe(value);
    expect(map.size).toBe(2);
  });

  it('a key missing before is found once set, and a new value replaces the one it remembered', () => {
    const map = new LastKeyMap<string, string>();
    expect(map.get('k')).toBeUndefined();
    map.set('k', 'first');
    expect(map.get('k')).toBe('first');
    map.set('k', 'second');
    expect(map.get('k')).toBe('second');
    map.set('other', 'x');
    expect(map.get('k')).toBe('second');
  });

  it('forgets everything when cleared, the last key included', () => {
    const map = new LastKeyMap<string | undefined, number>();
    map.set(undefined, 1);
    expect(map.get(undefined)).toBe(1);
    map.clear();
    expect(map.get(undefined)).toBeUndefined();
    expect(map.has(undefined)).toBe(false);
    expect(map.size).toBe(0);
  });
});
