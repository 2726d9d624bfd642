import { inspect } from 'node:util';

const REDACTED = '[redacted identity]';

/**
 * A resident registration number (or part of one) in memory. It renders as a placeholder in
 * logs, JSON and string templates, so an accidental `log.info({ request })` cannot leak it; the
 * digits come out only through `reveal()`, which only vendor encryption calls.
 */
export class SensitiveDigits {
  readonly #digits: string;
  constructor(digits: string) {
    this.#digits = digits;
  }
  reveal(): string {
    return this.#digits;
  }
  get length(): number {
    return this.#digits.length;
  }
  toString(): string {
    return REDACTED;
  }
  toJSON(): string {
    return REDACTED;
  }
  [inspect.custom](): string {
    return REDACTED;
  }
}
