const NOTHING = Symbol('nothing looked up yet');

/**
 * A Map that first compares the key with the last one it found. Header values are new strings on
 * every request, and a Map hashes a new string before it looks it up; the clients of one app send
 * the same values request after request, and comparing two short strings costs less than hashing.
 */
export class LastKeyMap<K, V> {
  private readonly map = new Map<K, V>();
  private lastKey: K | typeof NOTHING = NOTHING;
  private lastValue: V | undefined;

  get size(): number {
    return this.map.size;
  }
  get(key: K): V | undefined {
    if (key === this.lastKey) return this.lastValue;
    const value = this.map.get(key);
    if (value !== undefined) {
      this.lastKey = key;
      this.lastValue = value;
    }
    return value;
  }
  has(key: K): boolean {
    return this.map.has(key);
  }
  set(key: K, value: V): void {
    this.map.set(key, value);
    this.lastKey = key;
    this.lastValue = value;
  }
  clear(): void {
    this.map.clear();
    this.lastKey = NOTHING;
    this.lastValue = undefined;
  }
}
